"""The privacy page says, in each language, what an account keeps and for how long."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("prefix", "phrases"),
    [("/", ["アカウントは任意", "14日後", "5分で期限", "IPアドレス"]),
     ("/en/", ["accounts are optional", "ends after 14 days", "after 5 minutes",
               "No IP address is written"]),
     ("/zh-hans/", ["账户是可选的", "14 天后", "5 分钟后过期", "IP 地址不会写入"])],
)  # fmt: skip
def test_the_privacy_page_describes_accounts(client, settings, prefix, phrases):
    html = client.get(f"{prefix}privacy/").content.decode()
    assert 'id="accounts"' in html
    for phrase in phrases:
        assert phrase in html, phrase
    assert "no accounts" not in html


def test_the_figures_follow_the_settings(client, settings):
    settings.SESSION_COOKIE_AGE = 3 * 86400
    settings.PLAYERS_SIGNIN_CODE_MINUTES = 2
    html = client.get("/en/privacy/").content.decode()
    assert "ends after 3 days" in html and "after 2 minutes" in html
