#!/bin/sh
# Refresh platform/players/locale/*/django.po (the account pages' strings). makemessages
# files each string under the first LOCALE_PATHS entry above it, which for any folder of
# the repository is the site-wide locale/, so it runs in a temporary folder of symlinks.
# Then fill in msgstr and run `python ../../manage.py compilemessages` here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/locale" "$tmp/players"
ln -s "$here/locale" "$tmp/locale"
for f in apps.py views.py names.py ratelimit.py templatetags templates; do
  ln -s "$here/$f" "$tmp/players/$f"
done
cd "$tmp"
"$python" "$root/manage.py" makemessages --symlinks --ignore locale -l ja -l en -l zh_Hans
