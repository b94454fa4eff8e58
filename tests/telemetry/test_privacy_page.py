"""The privacy page, in three languages, with the switch; the footer links to it."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("prefix", "lang", "phrases"),
    [
        ("/", "ja", ["プライバシー", "30 日", "ゲーム統計を送る", "第三者"]),
        ("/en/", "en", ["Privacy", "30 days", "Send game statistics", "third parties",
                        "IP address"]),
        ("/zh-hans/", "zh-hans", ["隐私", "30 天", "发送游戏统计", "第三方"]),
    ],
)  # fmt: skip
def test_privacy_page_in_each_language(client, prefix, lang, phrases):
    response = client.get(f"{prefix}privacy/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    for phrase in phrases:
        assert phrase in html, phrase
    assert "data-telemetry-switch" in html and "js/telemetry.js" in html


def test_footer_links_to_the_privacy_page(client):
    assert 'href="/privacy/"' in client.get("/").content.decode()
    assert 'href="/en/privacy/"' in client.get("/en/").content.decode()


def test_the_switch_snippet_names_the_game_when_given_one():
    from django.template.loader import render_to_string

    from gamekit import registry

    html = render_to_string("telemetry/switch.html", {"game": registry.get("bozu")})
    assert 'data-game="bozu"' in html
    assert 'data-endpoint="/api/telemetry/events/"' in html
    assert "checked" in html
    assert 'data-game="karuta"' in render_to_string("telemetry/switch.html", {"game": "karuta"})
    assert "data-game" not in render_to_string("telemetry/switch.html", {})


def test_every_game_page_shows_the_switch(client):
    from gamekit import registry

    routed = [game for game in registry.all() if game.url]
    assert routed  # karuta's page at least
    for game in routed:
        html = client.get(game.url).content.decode()
        assert "data-telemetry-switch" in html, game.slug
        assert f'data-game="{game.slug}"' in html, game.slug
        assert html.count("data-telemetry-toggle") == 1, game.slug


def test_privacy_title_is_written_like_the_other_content_pages(client):
    """'Privacy · site', as the rules, trainer, credits and kimariji pages ('|' before)."""
    import re

    def title(path: str) -> str:
        return re.search(r"<title>(.*?)</title>", client.get(path).content.decode(), re.S)[1]

    site = title("/en/credits/").split(" · ", 1)[1]
    assert title("/en/privacy/") == f"Privacy · {site}"


def test_no_page_title_is_written_with_a_bar():
    """Every template's title joins its parts with '·' (the players' pages had '|')."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    templates = [
        p for top in ("platform", "games", "templates") for p in (root / top).rglob("*.html")
    ]
    assert len(templates) > 40
    barred = [
        str(p.relative_to(root))
        for p in templates
        for line in p.read_text().splitlines()
        if "block title" in line and " | " in line
    ]
    assert barred == []
