"""Take times read from a karuta match's log (lobby/takes.py): a client whose touches land
100-130 ms after every deciding kana, played through the real engine against the 名人 CPU
with the platform's stamps, is measured as such and flagged; the CPU's seat is not read."""

from __future__ import annotations

import random

import pytest

import gamekit
from gamekit.timed import STAMP
from games.karuta import cpu
from lobby import fairplay, takes

SETTINGS = {"mode": "competitive", "players": 2, "memorise_seconds": 0, "pace": "standard"}
OWD = 40


CPU_SPECS = [
    {"index": 0, "colour": "red", "is_cpu": False, "cpu_level": None},
    {"index": 1, "colour": "blue", "is_cpu": True, "cpu_level": "meijin"},
]


def bot_game(seed: int, specs=CPU_SPECS, other: str = "cpu") -> tuple[list[dict], list[float]]:
    """A log: seat 0 a bot touching the read card 100-130 ms after its deciding kana (its
    touches stamped as the platform stamps them, over a 40 ms link), seat 1 played by the
    名人 CPU's policy (`other`: the actor its moves are logged as)."""
    game = gamekit.registry.get("karuta")
    rows = [
        {
            "kind": "room",
            "seat": None,
            "actor": "system",
            "action": {"type": "start", "seats": specs},
        }
    ]
    state = game.new_state(SETTINGS, [gamekit.SeatSpec(**s) for s in specs], seed)
    rng = random.Random(seed)
    meant: list[float] = []
    for _ in range(20_000):
        waiting = game.to_act(state)
        if not waiting:
            return rows, meant
        seat = waiting[0]
        view = game.view(state, seat)
        r = view["reading"]
        if seat == 1 or view["phase"] != "reading":
            action = cpu.cpu_policy(view, seat, "meijin", rng)
            actor = other if seat == 1 else "human"
        elif r["poem"] in cpu.field_cards(view) and not any(s == 0 for s, _c, _t in r["touches"]):
            after = rng.uniform(100, 130)
            t = r["decided"] + after
            arrival = round(t + OWD + r["t0"])  # ms since this state began, as stamped
            stamp = {"arrival": arrival, "decided": arrival, "owd": OWD, "jitter": 0}
            action = {"type": "touch", "card": r["poem"], "t": round(t), STAMP: stamp}
            actor = "human"
            meant.append(round(t) - r["decided"])
        else:
            action, actor = {"type": "pass"}, "human"
        rows.append({"kind": "game", "seat": seat, "actor": actor, "action": action})
        state, _ = game.apply(state, seat, action)
    raise AssertionError("the game did not end")


def test_a_bots_takes_are_read_from_the_log_and_flag_it():
    game = gamekit.registry.get("karuta")
    record = fairplay.TakeRecord()
    measured: list[float] = []
    for seed in (1, 2):
        rows, meant = bot_game(seed)
        found = takes.takes_from_log(game, SETTINGS, seed, rows, {0, 1})
        assert found[1] == []  # the CPU's seat is never read
        assert len(found[0]) == len(meant) > 10
        # Measured on the server's terms (arrival - delay - release) as the bot meant them,
        # to the millisecond the stamps are rounded to.
        assert all(abs(x - y) <= 1 for x, y in zip(found[0], meant, strict=True))
        measured += found[0]
        for take in found[0]:
            record.add(take)
    assert all(100 <= x <= 131 for x in measured)
    assert len(measured) >= fairplay.WINDOW and record.flagged


@pytest.mark.django_db
def test_a_rated_matchs_takes_are_counted_into_the_players_records_once():
    from types import SimpleNamespace

    from django.contrib.auth import get_user_model

    from lobby.models import FairPlay
    from matches.models import Action
    from matches.services import SeatSpec, create_match_for

    users = [get_user_model().objects.create(username=n) for n in ("ume", "sakura")]
    match, _tokens = create_match_for(
        "karuta", SETTINGS, "friend", [SeatSpec(u.pk) for u in users], rated=True
    )
    start = match.actions.get(kind="room", action__type="start")
    rows, meant = bot_game(match.seed, start.action["seats"], other="human")
    last = match.actions.order_by("-seq").first().seq
    Action.objects.bulk_create(
        Action(match=match, seq=last + i, kind=row["kind"], seat=row["seat"],
               action=row["action"], actor=row["actor"])
        for i, row in enumerate(rows[1:], start=1)
    )  # fmt: skip
    seats = tuple(SimpleNamespace(index=i, user_id=u.pk, is_cpu=False) for i, u in enumerate(users))
    outcome = SimpleNamespace(match_id=match.id, rated=True, game="karuta", seats=seats)
    assert takes.count_match(outcome) == len(meant) > 10
    assert takes.count_match(outcome) == 0  # once per match
    bot = FairPlay.objects.get(user=users[0])
    assert len(bot.takes) == min(fairplay.WINDOW, len(meant))
    assert FairPlay.objects.get(user=users[1]).takes == []  # its touches carry no stamps
    assert takes.count_match(SimpleNamespace(**{**vars(outcome), "rated": False})) == 0
