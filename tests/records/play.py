"""Play whole matches through the match services with an injected clock, keeping the live
state after every seq (what the record's replay must reach again)."""

from __future__ import annotations

import contextlib
import random
from datetime import timedelta
from typing import Any

from django.utils import timezone

import gamekit
from matches import services, timed
from matches.epoch import moment
from matches.latency import Link
from matches.models import Match
from tests.matches.helpers import load


class Clock:
    def __init__(self, monkeypatch):
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def to(self, moment) -> None:
        self.now = max(self.now, moment)


def _karuta_plan(state: dict, seat: int, rng: random.Random) -> tuple[dict[str, Any], int] | None:
    """A person's next karuta move and its time on the reading's clock (None: let the
    judging window pass them)."""
    r = state["reading"]
    if state["phase"] != "reading" or r is None or seat not in r["active"]:
        return None
    if any(card == r["poem"] for card, _t in r["touches"][seat]):
        return None
    cards = (
        [c for rows in state["sides"] for row in rows for c in row]
        if state["mode"] == ("competitive")
        else [e[0] for e in state["field"]]
    )
    last = max([t for _c, t in r["touches"][seat]], default=0)
    t = max(last, r["decided"] + rng.randint(150, 2500))
    if t > r["close"]:
        return None
    if r["poem"] in cards and rng.random() < 0.8:
        card = r["poem"]
    elif cards and rng.random() < 0.5 and not r["touches"][seat]:
        card = rng.choice(cards)
    else:
        return None
    return {"type": "touch", "card": card, "t": t}, t


def play_match(match_id: Any, held: list[int], clock: Clock, seed: int) -> dict[int, Any]:
    """Play to the end: people in `held` play random legal moves (karuta: touches at chosen
    times, sent as a client on a 10 ms link would), everything else as the server does it.
    The live states by seq."""
    rng = random.Random(seed)
    live: dict[int, Any] = {}
    plans: dict[tuple, Any] = {}
    for _ in range(5000):
        match, state = load(match_id)
        live[match.seq] = state
        if match.status == Match.Status.FINISHED:
            return live
        game = gamekit.registry.get(match.game)
        people = [s for s in game.to_act(state) if s in held]
        due = match.due_at
        if gamekit.timed(game) is not None:
            if _karuta_person(match, state, people, held, clock, rng, plans, due):
                continue
        elif people:
            seat = people[0]
            action = rng.choice(game.legal_actions(state, seat))
            services.submit_action(match_id, held, action, seat=seat, action_id=f"a{match.seq}")
            continue
        assert due is not None, "nothing to play and nothing due"
        clock.to(due + timedelta(milliseconds=1))
        services.advance(match_id)
    raise AssertionError("the match did not end")


def _karuta_person(match, state, people, held, clock, rng, plans, due) -> bool:
    """Play a person's karuta move if one is due before the server's next move."""
    if state["phase"] == "memorise" and people:
        services.submit_action(match.id, held, {"type": "ready"}, seat=people[0])
        return True
    if state["phase"] == "send" and people:
        seat = people[0]
        action = rng.choice(gamekit.registry.get("karuta").legal_actions(state, seat))
        services.submit_action(match.id, held, action, seat=seat)
        return True
    for seat in people:
        r = state["reading"]
        key = (r["number"], seat, len(r["touches"][seat]))
        if key not in plans:
            plans[key] = _karuta_plan(state, seat, rng)
        plan = plans[key]
        if plan is None:
            continue
        action, t = plan
        start = timed.state_at(match) - r["since"]  # epoch ms of the reading's t = 0
        arrival = start + t + 12
        if due is not None and moment(arrival) > due:
            continue  # the server moves first (a CPU's touch, a window closing)
        clock.to(moment(arrival + 2))
        plans[key] = None
        # A refused touch (impossible: logged as a room line) is part of the record too.
        with contextlib.suppress(gamekit.GameError):
            services.submit_action(
                match.id, held, action, seat=seat, arrived_ms=arrival, link=Link(10, 2)
            )
        return True
    return False
