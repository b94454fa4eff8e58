"""CPU players, five levels. Pure Python; a CPU sees only its seat's view.

How a CPU plays a reading: it hears the upper verse kana by kana (the view's
schedule says when each kana is shown) and decides when the kimariji it tracks
is complete — the dynamic kimariji (only unread poems are rivals) or, at weaker
levels and some of the time, the static one, which is never shorter. Its touch
time is then

    deciding kana shown + reaction delay (drawn from the level)
    + movement (own side is nearer than the far side; rows farther away are slower)
    + extra search time if it has forgotten where the card lies.

Weaker levels sometimes guess as soon as they have heard a beginning that some
card on the field shares (that touch is otetsuki unless the guess was right).
Stronger levels choose the cards they send (送り札): cards with long kimariji and
cards that share a beginning with another of their cards, so that the pair is split.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamekit.base import IllegalActionError, InvalidActionError
from poems import catalogue
from poems.kimariji import static_kimariji


@dataclass(frozen=True)
class LevelParams:
    key: str
    reaction_ms: int  # mean delay after the deciding kana is shown
    reaction_sd_ms: int
    reaction_min_ms: int
    dynamic_rate: float  # share of readings in which it tracks the dynamic kimariji
    guess_rate: float  # share of readings in which it guesses before the kimariji
    forget_rate: float  # share of readings in which it has forgotten where the card lies
    forget_ms: int  # mean extra search time for a forgotten card
    move_scale: float  # multiplies MOVE_MS (hands of a beginner are slower)
    search_ms: int  # chirashi: mean time to spot the card among scattered cards
    smart_sends: bool


# THE table of the five levels. Times in ms; the measured figures (take time after
# the kimariji, otetsuki rate, win rates) come from `manage.py karuta_ladder`.
LEVELS: dict[str, LevelParams] = {
    p.key: p
    for p in (
        #          key       react   sd   min  dynamic guess forget forget_ms move search smart
        LevelParams("nyumon", 2600, 700, 1000, 0.0, 0.10, 0.40, 1500, 2.0, 2000, False),
        LevelParams("yowai",  1200, 350,  400, 0.0, 0.06, 0.25,  900, 1.5, 1200, False),
        LevelParams("futsu",   600, 180,  200, 0.5, 0.03, 0.12,  500, 1.2,  600, True),
        LevelParams("tsuyoi",  300,  90,  120, 0.9, 0.01, 0.05,  300, 1.0,  300, True),
        LevelParams("meijin",  120,  40,   60, 1.0, 0.002, 0.01, 200, 0.8,  150, True),
    )
}  # fmt: skip
LEVEL_ORDER = tuple(LEVELS)

# Movement to a competitive card at move_scale 1, by (own side?, row): rows are
# upper (nearest the centre line), middle, lower (nearest its owner).
MOVE_MS = {
    (True, 0): 70,
    (True, 1): 100,
    (True, 2): 140,
    (False, 0): 90,
    (False, 1): 130,
    (False, 2): 180,
}
LATERAL_MS = 50  # extra at the far left or right end of a row


def _sounds(poem: int) -> tuple[str, ...]:
    return catalogue.poem(poem).kami_sounds


def _reaction(params: LevelParams, rng: random.Random) -> float:
    return max(params.reaction_min_ms, rng.gauss(params.reaction_ms, params.reaction_sd_ms))


def _seat_point(seat: int, players: int) -> tuple[float, float]:
    """Chirashi: where a player sits around the unit-square field (seat 0 at the bottom)."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return 0.5 + 0.6 * math.cos(angle), 0.5 + 0.6 * math.sin(angle)


def _competitive_place(view: Mapping[str, Any], card: int) -> tuple[int, int, int, int] | None:
    for side, rows in enumerate(view["sides"]):
        for r, row in enumerate(rows):
            if card in row:
                return side, r, row.index(card), len(row)
    return None


def _field_cards(view: Mapping[str, Any]) -> list[int]:
    if view["mode"] == "competitive":
        return [c for rows in view["sides"] for row in rows for c in row]
    return [entry[0] for entry in view["field"]]


def movement_ms(view: Mapping[str, Any], seat: int, card: int, params: LevelParams) -> float | None:
    """Time for the hand to reach `card`, or None if it is not on the field."""
    if view["mode"] == "competitive":
        place = _competitive_place(view, card)
        if place is None:
            return None
        side, row, column, length = place
        centre = (length - 1) / 2
        lateral = abs(column - centre) / centre if centre else 0.0
        return (MOVE_MS[(side == seat, row)] + LATERAL_MS * lateral) * params.move_scale
    for entry in view["field"]:
        if entry[0] == card:
            sx, sy = _seat_point(seat, max(1, len(view["seats"])))
            distance = math.hypot(entry[1] - sx, entry[2] - sy)
            return (100 + 250 * distance) * params.move_scale
    return None


def cpu_policy(
    view: Mapping[str, Any], seat: int, level: str, rng: random.Random
) -> dict[str, Any]:
    """The CPU's next action from `view` (the seat's own view) alone."""
    params = LEVELS.get(level)
    if params is None:
        raise InvalidActionError(f"unknown CPU level {level!r}")
    if seat not in view["to_act"]:
        raise IllegalActionError("this seat has nothing to do now")
    phase = view["phase"]
    if phase == "memorise":
        return {"type": "ready"}
    if phase == "send":
        return {"type": "send", "card": choose_send(view, seat, params, rng)}
    return plan_touch(view, seat, params, rng)


def plan_touch(
    view: Mapping[str, Any], seat: int, params: LevelParams, rng: random.Random
) -> dict[str, Any]:
    """One touch (or a pass) for the current reading. Other seats' touches are ignored."""
    r = view["reading"]
    poem, times, close = r["poem"], r["kami"]["t"], r["close"]
    mine = [(card, t) for s, card, t in r["touches"] if s == seat]
    touched = {card for card, _ in mine}
    last_t = mine[-1][1] if mine else 0
    tracks_dynamic = rng.random() < params.dynamic_rate
    length = r["kimariji"] if tracks_dynamic else max(r["kimariji"], r["static_kimariji"])
    length = min(length, len(times))
    decided = times[length - 1]

    if not mine and length > 1 and rng.random() < params.guess_rate:
        heard = length - 1
        prefix = _sounds(poem)[:heard]
        candidates = [c for c in _field_cards(view) if _sounds(c)[:heard] == prefix]
        if candidates:
            card = rng.choice(sorted(candidates))
            move = movement_ms(view, seat, card, params) or 0.0
            t = times[heard - 1] + params.reaction_min_ms * rng.uniform(0.3, 0.8) + move
            return {"type": "touch", "card": card, "t": min(close, max(0, round(t)))}

    move = movement_ms(view, seat, poem, params)
    if move is None or poem in touched:
        return {"type": "pass"}  # a dead card: keep still
    t = decided + _reaction(params, rng) + move
    if view["mode"] != "competitive":
        t += params.search_ms * rng.uniform(0.5, 1.5)
    if rng.random() < params.forget_rate:
        t += params.forget_ms * rng.uniform(0.5, 1.5)
    if mine:
        t = max(t, last_t + params.reaction_min_ms)
    return {"type": "touch", "card": poem, "t": max(last_t, min(close, round(t)))}


def choose_send(view: Mapping[str, Any], seat: int, params: LevelParams, rng: random.Random) -> int:
    own = [card for row in view["sides"][seat] for card in row]
    if not own:
        raise IllegalActionError("nothing to send")
    if not params.smart_sends:
        return rng.choice(own)

    def score(card: int) -> tuple[float, float]:
        first = _sounds(card)[:1]
        pair = any(other != card and _sounds(other)[:1] == first for other in own)
        return (static_kimariji(card) + (2 if pair else 0), rng.random())

    return max(own, key=score)
