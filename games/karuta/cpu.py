"""CPU players, five levels, each a stated model of a person. Pure Python; a CPU sees only
its seat's view (and the poem data every player has by heart: the printed verses).

How a CPU plays a reading (the model; `sim.py` draws the same model in NumPy):

1. **When does it know which poem is read?** A player has learnt the kimariji of some
   poems: `own_learnt_rate` of the cards on its own side (studied in the memorisation
   time) and `learnt_rate` of the others. A learnt poem it knows at the deciding kana of
   the kimariji it tracks — the dynamic one (only unread poems are rivals) with its
   `dynamic_rate`, otherwise the static one, which is never shorter — plus `lag_kana`
   more kana on average (an exponential draw: how far behind the kimariji this person
   usually is), but never later than the last upper-verse kana; then a reaction drawn
   from the level. A poem it has not learnt it knows only once the whole upper verse is
   shown (a `patient` level waits for the reader to finish it, the held last kana
   included), and it needs `recall_ms` (0.5–1.5×) on top of its reaction to recall how
   the poem goes on. 入門 has learnt none and is patient, so each of its touches comes at
   least `reaction_min_ms` after the upper verse has ended.
   The player's form in this game (`form_factor`, drawn once per game) scales its
   reaction, hesitation, recall and movement and how many of its learnt poems it recalls.
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
    learnt_rate: float  # share of the poems whose kimariji it has learnt (others: the whole verse)
    own_learnt_rate: float  # the same for the cards on its own side (studied while memorising)
    lag_kana: float  # mean kana heard after the kimariji before it knows a learnt poem
    dynamic_rate: float  # share of readings in which it tracks the dynamic kimariji
    reaction_ms: int  # mean delay from knowing the poem to starting to move
    reaction_sd_ms: int
    reaction_min_ms: int
    recall_ms: int  # mean extra time to recall the lower verse of a poem it has not learnt
    guess_rate: float  # share of readings in which it jumps after a few kana
    guess_kana: tuple[int, int]  # it jumps after hearing this many kana (inclusive range)
    slip_rate: float  # share of readings in which it first reaches for a look-alike card
    forget_rate: float  # share of readings in which it has forgotten where the card lies
    forget_ms: int  # mean extra search time for a forgotten card
    move_scale: float  # multiplies MOVE_MS (a beginner's hands are slower)
    far_ms: int  # mean extra time to find a card on the far side (it knows its own side best)
    search_ms: int  # chirashi: mean time to spot the card among scattered cards
    smart_sends: bool
    form_sd: float  # how much its form varies from game to game (see `form_factor`)
    patient: bool = False  # waits for the end of the upper verse before it recalls a poem


# THE table of the five levels (times in ms). Who each level stands for:
#   入門  a beginner who has learnt no kimariji: waits until the reader has finished the
#         upper verse (its held last kana too), recalls how the poem goes on, then looks.
#   よわい a newcomer who has learnt some kimariji, more of those on its own side; for the
#         rest it too waits for the end of the upper verse.
#   ふつう a club player who knows most kimariji (those on its own side best); a poem it
#         has not learnt it recalls slowly once the whole upper verse is heard.
#   つよい a graded player: nearly every kimariji, quicker, follows the dynamic ones more.
#   名人  a champion: every kimariji, always dynamic, at champion speed.
# Nobody plays at the same level every game: each game a CPU draws its form (`form_factor`),
# which makes it quicker or slower all round and lets it recall more or fewer poems, and
# every reading draws its own reaction, hesitation after the kimariji and lapses. So a
# level loses some games to the level below it and wins some against the level above.
# Calibration (`manage.py karuta_ladder`; tests/games/karuta/test_cpu.py): a game is a race
# to about 25 cards taken, which turns a small steady edge per reading into a large edge
# per game; the form spread is what keeps adjacent levels at 65–80% and two steps apart
# under 95%. The page's speed figures are the command's output (data/ladder.json).
LEVELS: dict[str, LevelParams] = {
    p.key: p
    for p in (
        #          key    learnt own  lag  dyn   react  sd  min recall guess kana   slip forget f_ms move  far search smart  form patient  # noqa: E501
        LevelParams("nyumon", 0.0,  0.0,  0.0,  0.0,  350, 150, 200,  500, 0.0,   (1, 1), 0.05, 0.20,  600, 1.3,  300, 2000, False, 0.7, True),  # noqa: E501
        LevelParams("yowai",  0.35, 0.6,  1.0,  0.5,  340, 150, 150,  600, 0.02,  (1, 2), 0.03, 0.15,  600, 1.15, 250, 1200, False, 0.7, True),  # noqa: E501
        LevelParams("futsu",  0.6,  0.8,  0.6,  0.8,  220, 100,  60, 1800, 0.02,  (1, 3), 0.01, 0.08,  400, 0.85, 150,  600, True,  0.7),  # noqa: E501
        LevelParams("tsuyoi", 0.85, 0.95, 0.35, 0.9,  140,  80,  40, 1200, 0.01,  (2, 3), 0.0,  0.04,  300, 0.68,  90,  300, True,  0.7),  # noqa: E501
        LevelParams("meijin", 1.0,  1.0,  0.1,  1.0,   90,  50,  25,    0, 0.003, (2, 4), 0.0,  0.02,  200, 0.52,  40,  150, True,  0.7),  # noqa: E501
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


SIDED = ("competitive", "genpei")


def own_side(view: Mapping[str, Any], seat: int) -> int:
    """The side a seat plays for: its team in genpei (a shared field), else the seat's own."""
    teams = view.get("teams")
    return seat if teams is None else teams[seat]


def _competitive_place(view: Mapping[str, Any], card: int) -> tuple[int, int] | None:
    for side, rows in enumerate(view["sides"]):
        for r, row in enumerate(rows):
            if card in row:
                return side, r
    return None


def field_cards(view: Mapping[str, Any]) -> list[int]:
    if view["mode"] in SIDED:
        return [c for rows in view["sides"] for row in rows for c in row]
    return [entry[0] for entry in view["field"]]


def movement_ms(
    view: Mapping[str, Any], seat: int, card: int, params: LevelParams, rng: random.Random
) -> float | None:
    """Time for the hand to reach `card`, or None if it is not on the field."""
    form = form_factor(view, params)
    if view["mode"] in SIDED:
        place = _competitive_place(view, card)
        if place is None:
            return None
        side, row = place
        own = side == own_side(view, seat)
        far = 0.0 if own else params.far_ms * rng.uniform(0.5, 1.5)
        return (MOVE_MS[(own, row)] * params.move_scale + far) * form
    for entry in view["field"]:
        if entry[0] == card:
            sx, sy = _seat_point(seat, max(1, len(view["seats"])))
            distance = math.hypot(entry[1] - sx, entry[2] - sy)
            return (100 + 250 * distance) * params.move_scale * form
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


def lies_on_own_side(view: Mapping[str, Any], seat: int, card: int) -> bool:
    place = _competitive_place(view, card) if view["mode"] in SIDED else None
    return place is not None and place[0] == own_side(view, seat)


def form_factor(view: Mapping[str, Any], params: LevelParams) -> float:
    """How slow this player is in this game against its level's mean: exp(form_sd · z), z
    the seat's form (engine.cpu_form, a standard normal draw per game; 0 when the view has
    none). Above 1 an off day: it reacts, recalls and moves more slowly, hesitates longer
    after the kimariji, and knows a learnt share p of the poems only as p ** factor."""
    return math.exp(params.form_sd * float(view.get("form") or 0.0))


def recognised_at(
    view: Mapping[str, Any], seat: int, params: LevelParams, rng: random.Random
) -> float:
    """When this player knows which poem is read and starts to move: step 1 of the model."""
    r = view["reading"]
    times = r["kami"]["t"]
    form = form_factor(view, params)
    dynamic = rng.random() < params.dynamic_rate
    length = r["kimariji"] if dynamic else max(r["kimariji"], r["static_kimariji"])
    own = lies_on_own_side(view, seat, r["poem"])
    react = _gauss(params.reaction_ms * form, params.reaction_sd_ms, params.reaction_min_ms, rng)
    if rng.random() < (params.own_learnt_rate if own else params.learnt_rate) ** form:
        lag_kana = params.lag_kana * form
        lag = int(rng.expovariate(1 / lag_kana)) if lag_kana > 0 else 0
        return times[min(length + lag, len(times)) - 1] + react
    # Not learnt: it knows the poem once the whole upper verse is heard (its last kana is
    # shown; a patient player waits for the reader to finish it, the held kana included),
    # then recalls how the poem goes on.
    heard = r["kami"]["end"] if params.patient else times[-1]
    return heard + react + params.recall_ms * form * rng.uniform(0.5, 1.5)


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

    start = recognised_at(view, seat, params, rng)
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
    if view["mode"] not in SIDED:
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
    side = (view.get("send") or {}).get("from", own_side(view, seat))  # genpei: the team's
    own = [card for row in view["sides"][side] for card in row]
    if not own:
        raise IllegalActionError("nothing to send")
    if not params.smart_sends:
        return rng.choice(own)
    return max(own, key=lambda card: (send_score(card, own), rng.random()))
