"""The real ASGI server serves the home page with both games, in Japanese and in English."""

import urllib.request

import pytest


@pytest.mark.django_db(transaction=True)
def test_real_server_lists_both_games(asgi_server):
    ja = urllib.request.urlopen(asgi_server.url + "/", timeout=10).read().decode()
    assert "坊主めくり" in ja and "百人一首かるた" in ja

    # With prefix_default_language=False, "/" is always Japanese (a language cookie does not
    # change it); English lives under /en/.
    en = urllib.request.urlopen(asgi_server.url + "/en/", timeout=10).read().decode()
    assert '<html lang="en">' in en
    assert "Bozu Mekuri" in en and "Hyakunin Isshu karuta" in en
