"""The project's own copy of the poem data, field by field against the shared reference."""

import json
import os
from pathlib import Path

import pytest

from poems import catalogue
from poems.models import Poem, Poet

ROOT = Path(__file__).resolve().parents[2]
OURS = ROOT / "platform" / "poems" / "data" / "hyakunin_isshu.json"
REFERENCE = ROOT.parent / "shared" / "data" / "hyakunin_isshu.json"
FIELDS = ["number", "poet", "poet_kana", "kami", "shimo", "kami_kana", "shimo_kana"]


def _reference():
    if not REFERENCE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"the shared reference data is missing: {REFERENCE}")
        pytest.skip("shared/ reference data not beside this checkout")
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def test_every_field_matches_the_reference():
    ours = json.loads(OURS.read_text(encoding="utf-8"))
    reference = _reference()
    assert len(ours) == len(reference) == 100
    for mine, theirs in zip(ours, reference, strict=True):
        for field in FIELDS:
            assert mine[field] == theirs[field], (mine["number"], field)


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
