"""The plugin contract as the match layer keeps it: the CPU gets its seat's view and
nothing else, a game's leave policy decides what leaving means, a game may fix its seed."""

from __future__ import annotations

import json
import random

import pytest

import gamekit
from matches import frames, services
from matches.models import Action, Match
from tests.matches.helpers import create, load, states_by_seq

pytestmark = pytest.mark.django_db


def test_the_cpu_policy_is_handed_its_seats_view_and_nothing_else(settings, monkeypatch):
    settings.MATCHES_CPU_DELAY_MS = 0
    match, _token = create(mode="cpu", players=3, turns=30)
    game = gamekit.registry.get(match.game)
    calls = []
    real = type(game).cpu_policy

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real(game, *args, **kwargs)

    monkeypatch.setattr(game, "cpu_policy", spy)
    rng = random.Random(5)
    for _turn in range(30):
        match, state = load(match.id)
        if match.status == "finished":
            break
        (seat,) = game.to_act(state)
        if seat == 0:
            services.submit_action(match.id, [0], rng.choice(game.legal_actions(state, 0)))
        else:
            assert services.advance(match.id) == match.seq + 1
    assert Match.objects.get(pk=match.id).status == "finished"

    cpu_rows = list(Action.objects.filter(match=match, actor="cpu").order_by("seq"))
    assert len(calls) == len(cpu_rows) >= 10
    states = states_by_seq(match)
    for (args, kwargs), row in zip(calls, cpu_rows, strict=True):
        view, seat, level, rng_arg = args  # exactly these four, by position
        assert kwargs == {} and seat == row.seat and level == "easy"
        assert isinstance(rng_arg, random.Random)
        before = states[row.seq - 1]
        # The view a person in that seat gets, computed here from the replayed log...
        assert view == game.view(before, seat)
        # ...and nothing in it that seat may not know: the deck, the other hands.
        text = json.dumps(view)
        secret = set(before["deck"]) | {c for s, h in enumerate(before["hands"]) if s != seat
                                        for c in h}  # fmt: skip
        assert not [card for card in secret if card in text]


def test_leaving_a_game_whose_leavers_are_out():
    match, _token = create("hiddenout", mode="hotseat", players=3, turns=40)
    services.leave(match.id, [0, 1, 2], seat=1)
    match, state = load(match.id)
    assert state["out"] == [1] and state["hands"][1] == []
    row = Action.objects.get(match=match, seq=match.seq)
    assert (row.kind, row.action, row.actor) == (
        "room",
        {"type": "out", "reason": "leave"},
        "human",
    )
    assert row.events == [{"type": "out", "seat": 1, "reason": "leave"}, {"type": "out", "seat": 1}]
    # The room tells the page what leaving means here.
    frame = frames.build_frame(match.id, frames.Viewer.of([0, 1, 2]), None)
    assert frame.match["on_leave"] == "out"
    assert frame.events == [] and frame.reset
    # The seat is still the player's (they may watch); the log replays to the same state.
    assert match.seats.get(index=1).kind == "human"
    game = gamekit.registry.get(match.game)
    assert game.dump_state(services.replay(match)) == match.state
    # Play passes the leaver by.
    services.submit_action(match.id, [0, 1, 2], {"type": "draw"}, seat=0)
    _match, state = load(match.id)
    assert game.to_act(state) == (2,)


def test_resigning_two_players_when_leavers_are_out_ends_by_the_games_rules():
    match, _token = create("hiddenout", mode="hotseat", players=2, turns=40)
    services.resign(match.id, [0, 1], seat=0)
    match, state = load(match.id)
    assert match.status == "finished"
    assert gamekit.registry.get(match.game).result(state)["left"] == [1]


def test_a_player_away_past_the_grace_is_out_when_leavers_are_out(settings):
    settings.MATCHES_DISCONNECT_GRACE_S = 0
    settings.MATCHES_CPU_DELAY_MS = 0
    match, _token = create("hiddenout", mode="hotseat", players=3, turns=40)
    seq = services.advance(match.id)  # seat 0 never connected: away since the start
    row = Action.objects.get(match=match, seq=seq)
    assert (row.action, row.actor) == ({"type": "out", "reason": "away"}, "timeout")
    # The same rule in a game whose seats go to the CPU plays the turn instead.
    other, _token = create(mode="hotseat", players=3, turns=40)
    seq = services.advance(other.id)
    row = Action.objects.get(match=other, seq=seq)
    assert (row.kind, row.actor) == ("game", "timeout")


class FixedDeal(gamekit.registry.get("hiddenhand").__class__):
    slug = "fixeddeal"

    def seed_for(self, settings):
        return settings.get("number")

    def rematch_settings(self, settings):
        return {k: v for k, v in settings.items() if k != "number"}


@pytest.fixture
def fixed_deal():
    game = gamekit.registry.register(FixedDeal)
    yield game
    gamekit.registry.unregister(game.slug)


def test_a_game_may_fix_its_seed_and_deal_anew_on_play_again(fixed_deal):
    one, token = create("fixeddeal", mode="hotseat", number=12345)
    two, _ = create("fixeddeal", mode="hotseat", number=12345)
    assert one.seed == two.seed == 12345 and one.state == two.state
    one.status = Match.Status.FINISHED
    one.save()
    nxt, _token = services.rematch(one.id, token)
    assert "number" not in nxt.settings and nxt.seed != 12345
