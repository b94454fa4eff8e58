"""Language follows the visitor: the switch works from every language to every other, a
first visit follows Accept-Language, names in their own script (issue 15, item 6); one rule
for every unprefixed address (issue 26; docs/architecture.md "Languages")."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

LANGS = ["ja", "en", "zh-hans"]
PREFIX = {"ja": "", "en": "/en", "zh-hans": "/zh-hans"}
DIRECTIONS = [(a, b) for a in LANGS for b in LANGS if a != b]


@pytest.mark.parametrize(("source", "target"), DIRECTIONS)
@pytest.mark.parametrize("page", ["/", "/credits/", "/bozu/"])
def test_the_switch_returns_to_the_same_page_in_the_chosen_language(client, source, target, page):
    here = PREFIX[source] + page
    assert client.get(here).status_code == 200
    response = client.post("/i18n/setlang/", {"language": target, "next": here})
    assert response.status_code == 302
    assert response["Location"] == PREFIX[target] + page
    page_html = client.get(response["Location"]).content.decode()
    assert f'<html lang="{target}">' in page_html


@pytest.mark.parametrize(
    ("header", "location"),
    [("en-US,en;q=0.9", "/en/"), ("zh-CN,zh;q=0.9", "/zh-hans/"), ("fr,en;q=0.5", "/en/")],
)
def test_a_first_visit_follows_the_browser_language(client, header, location):
    response = client.get("/", headers={"accept-language": header})
    assert response.status_code == 302 and response["Location"] == location
    assert "Accept-Language" in response["Vary"]
    deep = client.get("/credits/?x=1", headers={"accept-language": header})
    assert deep["Location"] == location + "credits/?x=1"


def test_japanese_browsers_and_a_chosen_language_stay_put(client):
    ja = client.get("/", headers={"accept-language": "ja,en;q=0.5"})
    assert ja.status_code == 200 and "Accept-Language" in ja["Vary"]
    client.cookies["django_language"] = "ja"  # chose 日本語 on an English page
    chosen = client.get("/", headers={"accept-language": "en-US"})
    assert chosen.status_code == 200 and '<html lang="ja">' in chosen.content.decode()


@pytest.mark.parametrize(("lang", "prefix"), [("en", "/en"), ("zh-hans", "/zh-hans")])
def test_one_rule_for_every_unprefixed_address_the_visitors_choice(client, lang, prefix):
    """Issue 26: with a language chosen, a content page, a 404 and an expired invitation at
    unprefixed addresses all come in that language (no Japanese 404, then a Chinese
    invitation a second later)."""
    client.cookies["django_language"] = lang  # chosen with the switch
    page = client.get("/credits/?x=1", headers={"accept-language": "ja"})
    assert page.status_code == 302 and page["Location"] == f"{prefix}/credits/?x=1"
    assert "Cookie" in page["Vary"]
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    assert f'<html lang="{lang}">' in missing.content.decode()
    invite = client.get("/play/invite/NOSUCHCODE/")
    assert f'<html lang="{lang}">' in invite.content.decode()
    # Without a cookie, the browser's language is the choice, everywhere alike.
    client.cookies.clear()
    ja = {"accept-language": "ja"}
    assert client.get("/credits/", headers=ja).status_code == 200
    for path in ("/no-such-page/", "/play/invite/NOSUCHCODE/"):
        other = client.get(path, headers={"accept-language": lang})
        assert f'<html lang="{lang}">' in other.content.decode(), path
        assert '<html lang="ja">' in client.get(path, headers=ja).content.decode(), path


def test_unprefixed_non_pages_are_not_redirected(client):
    for path in ("/admin/login/", "/api/telemetry/schema/"):
        assert client.get(path, headers={"accept-language": "en"}).status_code != 302, path


@pytest.mark.parametrize("prefix", ["", "/en", "/zh-hans"])
def test_every_language_is_named_in_its_own_script(client, prefix):
    html = client.get(prefix + "/").content.decode()
    switch = re.search(r'<select id="language-select".*?</select>', html, re.S).group(0)
    names = re.findall(r'lang="([^"]+)">([^<]+)</option>', switch)
    assert names == [("ja", "日本語"), ("en", "English"), ("zh-hans", "简体中文")]


def test_the_bozu_history_heading_is_history_not_a_log(client):
    html = client.get("/bozu/").content.decode()
    heading = re.search(r'<h2 id="history-h">([^<]+)</h2>', html).group(1)
    assert heading == "歴史"


def test_the_language_cookie_is_secure_and_same_site(client, settings):
    settings.LANGUAGE_COOKIE_SECURE = True  # as in production (HTTPS on)
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie["secure"] and cookie["samesite"] == "Lax" and cookie["httponly"]
