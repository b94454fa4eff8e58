"""A game's settings as its menu's defaults would post them (tests and benchmarks)."""

from __future__ import annotations


def bozu_settings(players: int) -> dict:
    import gamekit

    game = gamekit.registry.get("bozu")
    form = game.settings_form(data=None)
    initial = {name: form.get_initial_for_field(f, name) for name, f in form.fields.items()}
    initial["players"] = players
    bound = game.settings_form(data=initial)
    assert bound.is_valid(), bound.errors
    return game.settings_from_form(bound.cleaned_data)
