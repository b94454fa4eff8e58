"""The project's own copy of the poem data is the truth: it is checked against the
checksums of the reviewed copy, kept here, and nothing reads a folder outside the repo."""

import hashlib
import json
import os
import re
from pathlib import Path

import pytest

from poems import catalogue
from poems.models import Poem, Poet

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "platform" / "poems" / "data"
# SHA-256 of each data file as reviewed. hyakunin_isshu.json and goshiki_colors.json are
# byte for byte the team's reviewed reference copies (checked on 2026-11-30, when the
# field-by-field comparison against that folder was replaced by these sums);
# poet_classes.json is as merged, its note citing docs/requirements.md (issue 26). Changing
# a data file means reviewing it again and updating its line here in the same commit.
REVIEWED = {
    "hyakunin_isshu.json": "e29c0014d2a14413b1d93f5bfe83a0e17461b8048017939009ecdeef7c06cd98",
    "goshiki_colors.json": "74714ad6279538c48f7a93d7c7d62a499ff690a9844faa5a8f18ef060042c416",
    "poet_classes.json": "b54e634f5b4dceac77b7455d24a12dafb4c06a2e98a4cb530bd6a51c3018db4a",
}


def test_data_files_are_the_reviewed_copies():
    assert sorted(p.name for p in DATA.glob("*.json")) == sorted(REVIEWED)
    for name, digest in REVIEWED.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, name


def test_the_copy_has_100_poems_with_every_field():
    ours = json.loads((DATA / "hyakunin_isshu.json").read_text(encoding="utf-8"))
    assert [p["number"] for p in ours] == list(range(1, 101))
    for poem in ours:
        for field in ("poet", "poet_kana", "kami", "shimo", "kami_kana", "shimo_kana"):
            assert isinstance(poem[field], str) and poem[field].strip(), (poem["number"], field)


# A path that leaves the checkout for the team's shared folder beside it, written as a
# relative path, a pathlib join or an absolute path; spelt in pieces so that this file
# does not match itself.
_OUTSIDE = re.compile(r"\.\./" + "shared" + r"\b|/ [\"']" + "shared" + r"[\"'] /|/work/" + "shared")
_SKIP_DIRS = {".git", ".venv", "node_modules", "var", "staticfiles", "__pycache__"}


def test_nothing_in_the_project_reads_outside_the_checkout():
    offenders = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        for name in files:
            path = Path(folder) / name
            if path.suffix not in {".py", ".sh", ".js", ".toml", ".cfg", ".ini", ""}:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            if _OUTSIDE.search(text):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_catalogue_reads_every_poem_in_order():
    records = catalogue.poems()
    assert [p.number for p in records] == list(range(1, 101))
    assert catalogue.poem(1).kami_kana == "あきのたの かりほのいほの とまをあらみ"
    with pytest.raises(KeyError):
        catalogue.poem(101)


@pytest.mark.django_db
def test_database_matches_the_catalogue():
    assert Poet.objects.count() == 100
    assert Poem.objects.count() == 100
    for record in catalogue.poems():
        poem = Poem.objects.select_related("poet").get(number=record.number)
        assert poem.poet.name == record.poet
        assert poem.poet.name_kana == record.poet_kana
        assert poem.poet.poet_class == record.poet_class.value
        assert (poem.kami, poem.shimo, poem.kami_kana, poem.shimo_kana) == (
            record.kami,
            record.shimo,
            record.kami_kana,
            record.shimo_kana,
        )
        assert poem.kami_said == record.kami_said
        assert poem.torifuda == record.torifuda


@pytest.mark.django_db
def test_admin_lists_poems_read_only(admin_client):
    response = admin_client.get("/admin/poems/poem/?kimariji_length__exact=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert "むらさめの" in html or "村雨の" in html
    assert admin_client.get("/admin/poems/poem/add/").status_code == 403
    search = admin_client.get("/admin/poems/poem/?q=蝉丸")
    assert "これやこの" in search.content.decode()
    by_class = admin_client.get("/admin/poems/poem/?poet__poet_class__exact=monk")
    assert by_class.status_code == 200 and "12" in by_class.content.decode()
