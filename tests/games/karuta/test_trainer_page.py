"""The trainer page, its manifest, the service worker and the home page's poem of the day."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone

from games.karuta import trainer_data
from pages import offline
from poems import daily
from tests.support.html import english_runs

LANGUAGES = [("/", "ja"), ("/en/", "en"), ("/zh-hans/", "zh-hans")]


def script(html: str, element_id: str) -> object:
    found = re.search(rf'<script[^>]*id="{element_id}"[^>]*>(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_trainer_page_in_each_language(client, prefix, lang):
    response = client.get(f"{prefix}karuta/trainer/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert script(html, "trainer-data") == trainer_data.page_data()
    messages = script(html, "trainer-messages")
    if lang != "en":
        assert english_runs(html) == []
        assert english_runs(json.dumps(messages, ensure_ascii=False)) == []
    assert 'rel="manifest"' in html
    assert 'data-offline-worker="/sw.js"' in html


def test_page_data_is_computed_from_the_kimariji_code():
    data = trainer_data.page_data()
    assert [p["n"] for p in data["poems"]] == list(range(1, 101))
    assert sorted(n for colour in data["colours"] for n in colour["poems"]) == list(range(1, 101))
    assert [s[0] for s in data["sets"]] == [1, 21, 41, 61, 81]


def test_manifest(client):
    response = client.get("/en/karuta/trainer/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["start_url"] == "/en/karuta/trainer/" and data["scope"] == "/"
    assert data["icons"] and data["display"] == "standalone"


def test_service_worker_keeps_the_offline_pages_only(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    pages = json.loads(re.search(r"const PAGES = new Set\((.*?)\);", body).group(1))
    for path in (
        "/karuta/trainer/",
        "/en/karuta/trainer/",
        "/zh-hans/kimariji/",
        "/karuta/",
        "/bozu/",
    ):
        assert path in pages
    assert not any(p.startswith(("/play/", "/api/", "/staff/", "/admin/")) for p in pages)
    assert pages == list(offline.offline_paths())
    # A rules page installs the worker; a page not kept offline only gets the offline note.
    assert 'data-offline-worker="/sw.js"' in client.get("/kimariji/").content.decode()
    missing = client.get("/no-such-page/").content.decode()
    assert "js/offline.js" in missing and "data-offline-worker" not in missing


@pytest.mark.django_db
def test_home_shows_the_poem_of_the_day_and_its_look_alikes(client):
    number = daily.poem_of_day(daily.japan_date(timezone.now()))
    html = client.get("/en/").content.decode()
    assert f'id="poem-{number}"' in html
    for near in daily.nearest(number):
        assert f"({near}, " in html
    assert 'id="trainer-due"' in html and 'href="/en/karuta/trainer/"' in html


def test_the_page_loads_its_one_built_script(client):
    """static/dist/trainer.js holds page.js and its imports (tests/js/trainer-bundle.test.mjs
    checks it is current); the page fetches nothing else of the trainer's."""
    html = client.get("/en/karuta/trainer/").content.decode()
    scripts = re.findall(r'<script type="module" src="([^"]+)"', html)
    assert any(s.startswith("/static/dist/trainer") for s in scripts)
    assert "js/trainer/" not in html
    assert "js/telemetry" not in html  # in the bundle, which binds the switch itself
    assert "data-telemetry-switch" in html


def test_indexeddb_starts_opening_in_the_head_before_the_first_layout(client):
    """static/dist/trainer-open.js (open-early.js): a classic script ahead of every stylesheet,
    so it runs as soon as it arrives and a first visit's database creation overlaps the first
    layout and the bundle's evaluation (an async module ran only after them)."""
    html = client.get("/en/karuta/trainer/").content.decode()
    head = html.split("</head>")[0]
    opener = re.search(r'<script src="/static/dist/trainer-open[^"]*"></script>', head)
    assert opener, "the IndexedDB opener is not in the head as a plain script"
    assert head.index(opener.group(0)) < head.index('rel="stylesheet"')
    assert head.index(opener.group(0)) < head.index('rel="modulepreload"')


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_karuta_page_links_to_the_trainer(client, prefix, lang):
    html = client.get(f"{prefix}karuta/").content.decode()
    assert f'href="{prefix}karuta/trainer/"' in html
