"""A finished rated karuta match's take times, for the fair-play check (fairplay.py).

Each person's touch of the read card is measured on the server's terms: the moment it
arrived (the platform's stamp, on the reading's clock), less that connection's one-way
delay as the server estimated it, less the moment the reading's deciding kana was released
(the reading's own schedule). The log is replayed through the game's `view`, the only way
the platform reads a game's state; karuta's view names the read poem, the reading's clock
(`t0`) and the deciding kana (`decided`). Nothing here is kept but the numbers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import IntegrityError, transaction

from gamekit.base import SeatSpec
from gamekit.timed import STAMP
from lobby import fairplay
from lobby.models import FairPlay, TakesCounted


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def takes_from_log(
    game: Any, settings: Mapping[str, Any], seed: int, rows: Iterable[Mapping[str, Any]],
    people: set[int],
) -> dict[int, list[float]]:  # fmt: skip
    """Each seat in `people`'s take times (ms after the deciding kana) over the log `rows`
    (dicts: kind "room"/"game", seat, actor, action), replayed from the seed."""
    state = None
    takes: dict[int, list[float]] = {seat: [] for seat in people}
    for row in rows:
        action = row["action"]
        if row["kind"] == "room":
            if action.get("type") == "start":
                specs = [SeatSpec(**spec) for spec in action["seats"]]
                state = game.new_state(settings, specs, seed)
            elif action.get("type") == "out":
                state, _ = game.remove_seat(state, row["seat"])
            continue
        seat = row["seat"]
        if seat in people and row["actor"] == "human" and action.get("type") == "touch":
            take = _take(game.view(state, seat).get("reading"), action)
            if take is not None:
                takes[seat].append(take)
        state, _ = game.apply(state, seat, action)
    return takes


def _take(reading: Mapping[str, Any] | None, action: Mapping[str, Any]) -> float | None:
    stamp = action.get(STAMP)
    if not reading or not isinstance(stamp, Mapping) or stamp.get("server") is True:
        return None
    if action.get("card") != reading.get("poem"):
        return None  # a mistake or a look-alike: not a take
    arrival, owd = _number(stamp.get("arrival")), _number(stamp.get("owd"))
    t0, decided = _number(reading.get("t0")), _number(reading.get("decided"))
    if arrival is None or t0 is None or decided is None:
        return None
    return fairplay.take_ms(arrival - t0, owd, decided)


def count_match(outcome: Any) -> int:
    """Add a finished rated karuta match's takes to its players' records, once per match;
    return how many takes were counted."""
    if not getattr(outcome, "rated", False) or outcome.game != "karuta":
        return 0
    from matches.models import Match
    from matches.services import get_game

    people = {s.index: s.user_id for s in outcome.seats if s.user_id is not None and not s.is_cpu}
    if not people:
        return 0
    match = Match.objects.get(pk=outcome.match_id)
    rows = match.actions.order_by("seq").values("kind", "seat", "actor", "action")
    takes = takes_from_log(get_game(match), match.settings, match.seed, rows, set(people))
    try:
        with transaction.atomic():
            TakesCounted.objects.create(match_id=outcome.match_id)
            for seat, user_id in people.items():
                row, _ = FairPlay.objects.select_for_update().get_or_create(user_id=user_id)
                record = fairplay.TakeRecord(row.takes, row.flagged)
                for take in takes[seat]:
                    record.add(take)
                row.takes, row.flagged = record.takes, record.flagged
                row.save(update_fields=["takes", "flagged"])
    except IntegrityError:
        return 0  # counted already (a re-delivered signal, the sweep)
    return sum(len(t) for t in takes.values())
