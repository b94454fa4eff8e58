"""Touches judged on the server's terms: the reading's clock across states, the platform's
arrival stamps, impossible touches, and the judging window. Pure Python (no Django, no clock).

Time enters only as numbers. The platform stamps every action of a timed game
(`gamekit.timed.STAMP`): `arrival` and `decided`, ms since the current state began, measured
by the server when the action arrived and when it was decided (the new state begins then),
`owd`, the actor's connection's one-way delay estimate, `jitter`, the spread of its round
trips (either None: unknown), and `server`: true for the server's own moves (a CPU, a
judging-window pass), which claim nothing and are not checked. The reading keeps `since`:
its own time (ms from t = 0, the first upper-verse kana) at which the current state began,
so an arrival `a` happened at reading time `since + a`. The stamps are logged with the
action: a replay reaches the same state.

Impossible touches (refused with `ImpossibleTouchError`, which the platform logs):
- "future": the claimed time is later than the arrival by more than FUTURE_TOLERANCE_MS,
  or the touch arrived before the reading's t = 0 (it was meant for an earlier reading);
- "late": it arrived later than its claimed time allows: arrival − t > window, where the
  window is the actor's one-way delay plus its jitter plus LATE_MARGIN_MS, at most
  LATE_CAP_MS (the cap when the delay is unknown). A client that holds pongs to look
  jittery gains no more than the cap, and its stamps log the jitter it was allowed;
- "guess": the upper-verse kana shown by t − MIN_REACTION_MS do not yet single the
  touched card out among the unread poems (it begins with them, and so does another
  unread poem; before the first kana every card does). This depends only on kana already
  released and on which poems are unread, never on the poem being read, so a refusal
  tells the client nothing it did not know. A touch on a card that does not begin with
  the kana heard is a plain mistake (otetsuki), not refused.

A touch claiming a moment later than its decision (a few ms, within the tolerance) is
taken at the decision: no touch in a state lies in that state's future.

The judging window: once someone has touched the read card at T (corrected time), every
other seat still to finish is passed by the server at T + its window, and every seat at
the reading's close + its window: a contested card is awarded after a bounded wait, by
corrected times, and a reading always ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from gamekit.base import IllegalActionError
from gamekit.timed import STAMP
from poems import catalogue, kana

FUTURE_TOLERANCE_MS = 50
LATE_MARGIN_MS = 100
LATE_CAP_MS = 400
MIN_REACTION_MS = 100
REASONS = ("future", "late", "guess")


class ImpossibleTouchError(IllegalActionError):
    """A touch no honest client could have sent (see the module's text). Logged."""

    code = "impossible_touch"
    logged = True

    def __init__(self, reason: str) -> None:
        super().__init__(f"impossible touch ({reason})")
        self.reason = reason


def stamp_of(action: Mapping[str, Any]) -> dict[str, Any] | None:
    """The platform's stamp of an action (None for an unstamped one: engine tests, old logs)."""
    stamp = action.get(STAMP)
    if not isinstance(stamp, Mapping):
        return None
    arrival, decided = stamp.get("arrival"), stamp.get("decided", stamp.get("arrival"))
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (arrival, decided)):
        return None
    return {
        "arrival": arrival,
        "decided": decided,
        "owd": _ms(stamp.get("owd")),
        "jitter": _ms(stamp.get("jitter")),
        "server": stamp.get("server") is True,
    }


def _ms(value: Any) -> int | None:
    """A stamp's delay: a whole number of ms, not negative (else unknown)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def window(owd: int | None, jitter: int | None = None) -> int:
    """How long after a claimed time its touch may arrive (and how long the server waits):
    the one-way delay, plus the link's jitter (unknown: none), plus the margin; the cap
    when the delay is unknown, and at most the cap."""
    if owd is None:
        return LATE_CAP_MS
    return min(owd + (jitter or 0) + LATE_MARGIN_MS, LATE_CAP_MS)


@cache
def _keys(poem: int) -> tuple[str, ...]:
    """The upper verse as compared for kimariji (as `poems.kimariji` compares it)."""
    return tuple(kana.comparison_keys(list(catalogue.poem(poem).kami_sounds)))


def heard(kami_t: Sequence[int], moment: float) -> int:
    """How many upper-verse kana are shown by `moment` (reading time)."""
    return sum(1 for t in kami_t if t <= moment)


def singled_out(card: int, poem: int, unread: Sequence[int], n: int) -> bool | None:
    """Do the first `n` kana of `poem` single `card` out among the unread poems?
    True: yes; False: the card begins with them but so does another unread poem (a guess);
    None: the card does not begin with them (a mistake, not a guess)."""
    prefix = _keys(poem)[:n]
    if _keys(card)[:n] != prefix:
        return None
    rivals = [p for p in unread if p != card and _keys(p)[:n] == prefix]
    return not rivals


def check_touch(
    since: int,
    kami_t: Sequence[int],
    poem: int,
    unread: Sequence[int],
    card: int,
    t: int,
    stamp: Mapping[str, Any] | None,
    judge: str = "corrected",
) -> None:
    """Raise ImpossibleTouchError if no honest client could have sent this touch (`since`:
    the reading time at which the current state began; `kami_t`: when each upper-verse
    kana is shown; `poem`: the one being read)."""
    if stamp is None or stamp["server"]:
        return
    arrival = since + stamp["arrival"]
    if arrival < 0:  # nothing is shown before t = 0: a touch meant for an earlier reading
        raise ImpossibleTouchError("future")
    if judge == "arrival":
        return
    if t > arrival + FUTURE_TOLERANCE_MS:
        raise ImpossibleTouchError("future")
    if arrival - t > window(stamp["owd"], stamp["jitter"]):
        raise ImpossibleTouchError("late")
    if singled_out(card, poem, unread, heard(kami_t, t - MIN_REACTION_MS)) is False:
        raise ImpossibleTouchError("guess")


def judged_time(
    reading: Mapping[str, Any], t: int, stamp: Mapping[str, Any] | None, judge: str
) -> int:
    """The time a touch is recorded at, in the state it makes (`reading["since"]` is the
    moment it was decided): its claim (the corrected clock) or, with the arrival-order judge
    (KARUTA_JUDGE = "arrival", the fairness bench's baseline), its arrival; never later than
    its decision (nothing in a state lies in that state's future)."""
    if stamp is None:
        return t
    now = reading.get("since", 0)
    if judge == "arrival" and not stamp["server"]:
        t = now - stamp["decided"] + stamp["arrival"]
    return max(0, min(t, now, reading["close"]))


def deadline(
    reading: Mapping[str, Any],
    seat: int,
    owd: int | None,
    cpu: bool,
    jitter: int | None = None,
) -> int | None:
    """Reading time at which the server passes `seat` if it has not finished: the earliest
    touch on the read card plus the seat's window (the one its touches are checked with),
    or the close plus it."""
    if seat not in reading["active"] or seat in reading["done"]:
        return None
    win = window(0, 0) if cpu else window(owd, jitter)
    first = min(
        (t for touches in reading["touches"] for c, t in touches if c == reading["poem"]),
        default=None,
    )
    due = reading["close"] + win
    if first is not None:
        due = min(due, first + win)
    return due
