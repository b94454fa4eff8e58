#!/bin/sh
# Refresh platform/events/locale/*/django.po (the events's own strings: its templates,
# views, texts and pools). Then fill in msgstr and run
# `python ../../manage.py compilemessages` here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here"
mkdir -p locale
"${PYTHON:-python}" "$root/manage.py" makemessages --ignore migrations -l ja -l en -l zh_Hans
