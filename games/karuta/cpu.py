"""CPU players, five levels, each a stated model of a person. Pure Python; a CPU sees only
its seat's view (and the poem data every player has by heart: the printed verses).

How a CPU plays a reading (the model; `sim.py` draws the same model in NumPy):

1. **When does it know which poem is read?** At the deciding kana of the kimariji it
   tracks — the dynamic one (only unread poems are rivals) with its `dynamic_rate`,
   otherwise the static one, which is never shorter — plus `lag_kana` more kana on
   average (an exponential draw: how far behind the kimariji this person usually is),
   but never later than the last upper-verse kana. Then a reaction drawn from the
   level. 入門's lag is infinite: it always hears the whole upper verse, so each of its
   touches comes at least `reaction_min_ms` after the last upper-verse kana is shown.
2. **Reaching the card**: movement by where the card lies. On its own side the lower row
   (nearest its owner, where one-kana cards are usually kept) is quickest and the upper
   row slowest; on the far side the upper row (nearest the centre line) is quickest and
   the far lower row slowest. A level's hands scale this (`move_scale`), and a weaker
   player, who knows its own side best, needs `far_ms` more to find a card on the far
   side. With `forget_rate` it has forgotten where the card lies and searches longer.
3. **Mistakes come only from what has been heard.**
   * A guess (`guess_rate`): the player jumps after hearing `guess_kana` kana — a number
     drawn from the level, independent of the poem being read. If its kimariji is not
     complete by then, it touches a card on the field that shares the heard beginning
     (the read card among them if it lies there: then the guess takes it). A wrong
     touch is otetsuki unless it lies on the same side as the read card.
   * A slip (`slip_rate`, weaker levels): at the moment it would touch, it reaches first
     for a field card that begins with the same sound as the poem heard (a mix-up of
     similar cards), then goes on to the right one if it lies on the field.
4. A dead card (not on the field) is not touched, except by a guess or a slip.

Stronger levels choose the cards they send (送り札): cards with long kimariji and cards
that share a beginning with another of their cards, so that the pair is split.

`manage.py karuta_ladder` prints the win-rate table and each level's touch times.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from gamekit.base import IllegalActionError, InvalidActionError
from poems import catalogue, kana
from poems.kimariji import static_kimariji


@dataclass(frozen=True)
class LevelParams:
    key: str
    lag_kana: float  # mean kana heard after the kimariji before it knows (inf: the whole verse)
    dynamic_rate: float  # share of readings in which it tracks the dynamic kimariji
    reaction_ms: int  # mean delay from knowing the poem to starting to move
    reaction_sd_ms: int
    reaction_min_ms: int
    guess_rate: float  # share of readings in which it jumps after a few kana
    guess_kana: tuple[int, int]  # it jumps after hearing this many kana (inclusive range)
    slip_rate: float  # share of readings in which it first reaches for a look-alike card
    forget_rate: float  # share of readings in which it has forgotten where the card lies
    forget_ms: int  # mean extra search time for a forgotten card
    move_scale: float  # multiplies MOVE_MS (a beginner's hands are slower)
    far_ms: int  # mean extra time to find a card on the far side (it knows its own side best)
    search_ms: int  # chirashi: mean time to spot the card among scattered cards
    smart_sends: bool


INF = math.inf

# THE table of the five levels (times in ms). Who each level stands for:
#   入門  a beginner who knows no kimariji: hears the whole upper verse, then looks;
#         slow to find a card on the far side.
#   よわい a newcomer: now and then knows a poem early, mostly hears the whole verse.
#   ふつう a club player who has learnt the kimariji: takes at them, 0.3–0.6 s later.
#   つよい a graded player: a little quicker, follows the dynamic kimariji more often.
#   名人  a champion: every kimariji, always dynamic, 0.1–0.3 s from sound to card.
# Each adjacent pair was tuned with `manage.py karuta_ladder`. A 25-card game adds up
# about fifty races, so a small edge in one reading becomes a large edge in a game:
# levels that beat each other 75–95% of the time must be close. The step from "hears
# the whole verse" (よわい) to "takes at the kimariji" (ふつう) cannot be split that
# finely by one level, so that pair stays near 100% (see the ladder's table).
LEVELS: dict[str, LevelParams] = {
    p.key: p
    for p in (
        #          key      lag  dyn  react  sd  min  guess kana    slip forget f_ms move  far search smart  # noqa: E501
        LevelParams("nyumon", INF, 0.0,  1400, 450, 600, 0.0,   (1, 1), 0.05, 0.30, 1000, 1.6,  2500, 2000, False),  # noqa: E501
        LevelParams("yowai",  33.0, 0.0, 1300, 450, 500, 0.04,  (1, 2), 0.02, 0.20,  800, 1.5,  2400, 1200, False),  # noqa: E501
        LevelParams("futsu",  0.05, 0.9,  200,  80,  90, 0.03,  (1, 3), 0.01, 0.12,  500, 0.9,   120,  600, True),  # noqa: E501
        LevelParams("tsuyoi", 0.05, 0.95, 170,  60,  80, 0.015, (2, 3), 0.0,  0.06,  300, 0.85,   40,  300, True),  # noqa: E501
        LevelParams("meijin", 0.0, 1.0,   130,  40,  60, 0.003, (2, 4), 0.0,  0.01,  200, 0.8,     0,  150, True),  # noqa: E501
    )
}  # fmt: skip
LEVEL_ORDER = tuple(LEVELS)

# Movement to a competitive card at move_scale 1, by (on its own side?, row); rows are
# 0 upper (nearest the centre line), 1 middle, 2 lower (nearest the side's owner).
MOVE_MS = {
    (True, 2): 60,
    (True, 1): 90,
    (True, 0): 120,
    (False, 0): 200,
    (False, 1): 240,
    (False, 2): 280,
}


@cache
def _keys(poem: int) -> tuple[str, ...]:
    """The upper verse as compared for kimariji (sounds, voicing marks counted)."""
    return tuple(kana.comparison_keys(list(catalogue.poem(poem).kami_sounds)))


@cache
def shared_beginning(a: int, b: int) -> int:
    """How many kana the upper verses of poems a and b share from their start."""
    n = 0
    for x, y in zip(_keys(a), _keys(b), strict=False):
        if x != y:
            break
        n += 1
    return n


def _gauss(mean: int, sd: int, low: int, rng: random.Random) -> float:
    return max(low, rng.gauss(mean, sd))


def _seat_point(seat: int, players: int) -> tuple[float, float]:
    """Chirashi: where a player sits around the unit-square field (seat 0 at the bottom)."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return 0.5 + 0.6 * math.cos(angle), 0.5 + 0.6 * math.sin(angle)


def _competitive_place(view: Mapping[str, Any], card: int) -> tuple[int, int] | None:
    for side, rows in enumerate(view["sides"]):
        for r, row in enumerate(rows):
            if card in row:
                return side, r
    return None


def field_cards(view: Mapping[str, Any]) -> list[int]:
    if view["mode"] == "competitive":
        return [c for rows in view["sides"] for row in rows for c in row]
    return [entry[0] for entry in view["field"]]


def movement_ms(
    view: Mapping[str, Any], seat: int, card: int, params: LevelParams, rng: random.Random
) -> float | None:
    """Time for the hand to reach `card`, or None if it is not on the field."""
    if view["mode"] == "competitive":
        place = _competitive_place(view, card)
        if place is None:
            return None
        side, row = place
        far = 0.0 if side == seat else params.far_ms * rng.uniform(0.5, 1.5)
        return MOVE_MS[(side == seat, row)] * params.move_scale + far
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


def extra_kana(params: LevelParams, rng: random.Random) -> int:
    """Kana this player still needs after the kimariji (exponential, rounded down)."""
    if math.isinf(params.lag_kana):
        return 99
    return int(rng.expovariate(1 / params.lag_kana)) if params.lag_kana > 0 else 0


def recognised_at(view: Mapping[str, Any], params: LevelParams, rng: random.Random) -> float:
    """When this player knows which poem is read and starts to move: step 1 of the model."""
    r = view["reading"]
    times = r["kami"]["t"]
    dynamic = rng.random() < params.dynamic_rate
    length = r["kimariji"] if dynamic else max(r["kimariji"], r["static_kimariji"])
    length = min(length + extra_kana(params, rng), len(times))
    react = _gauss(params.reaction_ms, params.reaction_sd_ms, params.reaction_min_ms, rng)
    return times[length - 1] + react


def _touch(card: int, t: float, low: int, close: int) -> dict[str, Any]:
    return {"type": "touch", "card": card, "t": max(low, min(close, round(t)))}


def plan_touch(
    view: Mapping[str, Any], seat: int, params: LevelParams, rng: random.Random
) -> dict[str, Any]:
    """One touch (or a pass) for the current reading. Other seats' touches are ignored."""
    r = view["reading"]
    poem, times, close = r["poem"], r["kami"]["t"], r["close"]
    mine = [(card, t) for s, card, t in r["touches"] if s == seat]
    touched = {card for card, _ in mine}
    last_t = mine[-1][1] if mine else 0
    on_field = field_cards(view)

    if not mine and params.guess_rate and rng.random() < params.guess_rate:
        heard = rng.randint(*params.guess_kana)  # drawn without looking at the poem
        dynamic = rng.random() < params.dynamic_rate
        length = r["kimariji"] if dynamic else max(r["kimariji"], r["static_kimariji"])
        if heard < min(length, len(times)):
            alike = sorted(c for c in on_field if shared_beginning(c, poem) >= heard)
            if alike:
                card = rng.choice(alike)
                react = params.reaction_min_ms * rng.uniform(0.5, 1.0)
                move = movement_ms(view, seat, card, params, rng) or 0.0
                return _touch(card, times[heard - 1] + react + move, 0, close)

    start = recognised_at(view, params, rng)
    if not mine and params.slip_rate and rng.random() < params.slip_rate:
        alike = sorted(c for c in on_field if c != poem and shared_beginning(c, poem) >= 1)
        if alike:
            card = rng.choice(alike)
            move = movement_ms(view, seat, card, params, rng) or 0.0
            return _touch(card, start + move, 0, close)

    move = movement_ms(view, seat, poem, params, rng)
    if move is None or poem in touched:
        return {"type": "pass"}  # a dead card (or taken already): keep still
    t = start + move
    if view["mode"] != "competitive":
        t += params.search_ms * rng.uniform(0.5, 1.5)
    if rng.random() < params.forget_rate:
        t += params.forget_ms * rng.uniform(0.5, 1.5)
    if mine:
        t = max(t, last_t + params.reaction_min_ms)
    return _touch(poem, t, last_t, close)


def send_score(card: int, own: list[int]) -> int:
    """How much a strong player wants to send `card`: long kimariji, and split pairs."""
    first = _keys(card)[:1]
    pair = any(other != card and _keys(other)[:1] == first for other in own)
    return static_kimariji(card) + (2 if pair else 0)


def choose_send(view: Mapping[str, Any], seat: int, params: LevelParams, rng: random.Random) -> int:
    own = [card for row in view["sides"][seat] for card in row]
    if not own:
        raise IllegalActionError("nothing to send")
    if not params.smart_sends:
        return rng.choice(own)
    return max(own, key=lambda card: (send_score(card, own), rng.random()))
