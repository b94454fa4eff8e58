"""The real ASGI server serves the home page with both games, in Japanese by default and in
English after using the language switch."""

import http.cookiejar
import re
import urllib.parse
import urllib.request

import pytest


@pytest.mark.django_db(transaction=True)
def test_real_server_lists_both_games(asgi_server):
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    ja = browser.open(asgi_server.url + "/", timeout=10).read().decode()
    assert '<html lang="ja">' in ja
    assert "坊主めくり" in ja and "百人一首かるた" in ja

    # The language switch in the header: a form posting to Django's set_language view.
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', ja).group(1)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "language": "en", "next": "/"})
    request = urllib.request.Request(
        asgi_server.url + "/i18n/setlang/",
        data=form.encode(),
        headers={"Referer": asgi_server.url + "/"},
    )
    response = browser.open(request, timeout=10)
    assert response.url.endswith("/en/")  # the switch sends you to the same page in English
    en = response.read().decode()
    assert '<html lang="en">' in en
    assert "Bozu Mekuri" in en and "Hyakunin Isshu karuta" in en
