"""Bakudan through the real match path (services, the log, the CPU hook): a game number
replays the same game, CPU moves included, and the vs-CPU fast-forward finishes the match."""

from __future__ import annotations

import random

import pytest

import gamekit
from games.bakudan.number import decode
from games.bakudan.number import encode as number_for
from matches import services
from matches.models import Action, Match
from tests.matches.helpers import load

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


def play(number: str, level: str, human_moves: list | None = None):
    """A vs-CPU match from this number. The person plays random legal moves (recorded), or the
    given ones; CPU moves are the platform's own (`advance`)."""
    table = decode(number)
    match, _token = services.create_match(
        "bakudan", {"players": table.players, "number": number}, "cpu", level
    )
    game = gamekit.registry.get("bakudan")
    rng = random.Random(number)
    moves = iter(human_moves) if human_moves is not None else None
    played = []
    for _ in range(1000):
        match, state = load(match.id)
        if match.status != Match.Status.PLAYING:
            break
        (seat,) = game.to_act(state)
        if seat == 0:
            action = next(moves) if moves else rng.choice(game.legal_actions(state, 0))
            played.append(action)
            services.submit_action(match.id, [0], action, action_id=f"a{match.seq}")
        else:
            assert services.advance(match.id) is not None
    rows = [
        (row.seat, row.kind, row.actor, row.action, row.events)
        for row in Action.objects.filter(match=match).order_by("seq")
    ]
    return match, rows, played


def test_a_game_number_replays_the_same_game_through_the_platform():
    number = number_for(3, "calm", 31337)
    first, rows, moves = play(number, "calm")
    assert first.seed == 31337
    assert first.status == Match.Status.FINISHED
    cpu_rows = [r for r in rows if r[2] == "cpu"]
    assert cpu_rows, "the CPUs moved"
    again, rerows, _ = play(number, "calm", moves)
    assert again.pk != first.pk and rerows == rows  # every CPU move and event, in order
    _match, state = load(again.id)
    assert state.number == number


def test_without_a_number_the_match_gets_a_short_seed_and_shows_its_number():
    match, _token = services.create_match("bakudan", {"players": 4}, "cpu", "ruthless")
    assert 0 <= match.seed < 2**20
    _match, state = load(match.id)
    game = gamekit.registry.get("bakudan")
    assert state.number == number_for(4, "ruthless", match.seed)
    assert game.view(state, 0)["number"] is None  # shown once the game is over
