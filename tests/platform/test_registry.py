import pytest

import gamekit
from gamekit.registry import GameRegistry


class Dummy(gamekit.Game):
    slug = "dummy"
    name = "Dummy"


def test_register_get_unregister():
    reg = GameRegistry()
    game = reg.register(Dummy)
    assert reg.is_registered("dummy")
    assert reg.get("dummy") is game
    assert reg.all() == [game]
    with pytest.raises(gamekit.AlreadyRegistered):
        reg.register(Dummy)
    reg.unregister("dummy")
    assert not reg.is_registered("dummy")
    with pytest.raises(gamekit.NotRegistered):
        reg.get("dummy")
    with pytest.raises(gamekit.NotRegistered):
        reg.unregister("dummy")


def test_only_games_can_register():
    with pytest.raises(TypeError):
        GameRegistry().register(object)  # type: ignore[arg-type]


def test_installed_games_are_discovered():
    slugs = [g.slug for g in gamekit.registry.all()]
    assert {"bozu", "karuta", "coinflip"} <= set(slugs)
    assert slugs.index("bozu") < slugs.index("karuta")


@pytest.mark.django_db
def test_a_game_added_in_settings_only_appears_on_the_home_page(client):
    # tests/fixtures/demo_game is installed by the test settings only; platform/ never names it.
    html = client.get("/").content.decode()
    assert "Coin Flip Demo" in html
    assert "A throwaway game that proves plugins need no platform change." in html
