import pytest


@pytest.mark.django_db
def test_home_lists_games_in_japanese_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ja">' in html
    assert "坊主めくり" in html
    assert "百人一首かるた" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("prefix", "lang", "bozu", "karuta"),
    [
        ("/en/", "en", "Bozu Mekuri", "Hyakunin Isshu karuta"),
        ("/zh-hans/", "zh-hans", "翻和尚牌", "百人一首歌留多"),
    ],
)
def test_home_in_other_languages(client, prefix, lang, bozu, karuta):
    html = client.get(prefix).content.decode()
    assert f'<html lang="{lang}">' in html
    assert bozu in html and karuta in html


@pytest.mark.django_db
def test_language_switch_sets_the_language(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert "Bozu Mekuri" in response.content.decode()


@pytest.mark.django_db
def test_credits_keep_the_source_notices(client):
    html = client.get("/credits/").content.decode()
    assert "Copyright (c) 2012-2015, Haruhiro Yoshimoto" in html
    assert "BSD-3-Clause" in html and "MIT" in html


@pytest.mark.django_db
def test_404_in_site_style(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "site-header" in html and "ページが見つかりません" in html


def test_500_page_is_self_contained(rf):
    from pages.views import server_error

    response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert "サーバーでエラーが起きました" in response.content.decode()
