#!/bin/sh
# Refresh platform/pages/locale/*/django.po. This catalogue holds the strings of the
# home and credits pages, the kimariji page, the poem snippet and the karuta rules page (games/karuta: views,
# diagrams, FAQ, templates/karuta) with its kimariji trainer (trainer_views.py, templates/karuta/trainer.html). makemessages only reads files under the folder
# it runs in, so run it in a temporary folder of symlinks to exactly those files;
# the site-wide strings stay in locale/ and games/karuta/locale stays the engine's.
# Then fill in msgstr and run `python ../../manage.py compilemessages` here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/locale" "$tmp/pages/templates/pages" "$tmp/karuta"
ln -s "$here/locale" "$tmp/locale"
ln -s "$here/views.py" "$tmp/pages/views.py"
for f in kimariji.html _poem.html home.html credits.html; do
  ln -s "$here/templates/pages/$f" "$tmp/pages/templates/pages/$f"
done
for f in views.py trainer_views.py diagrams.py faq.py templates; do
  ln -s "$root/games/karuta/$f" "$tmp/karuta/$f"
done
cd "$tmp"
"$python" "$root/manage.py" makemessages --symlinks --ignore locale -l ja -l en -l zh_Hans
