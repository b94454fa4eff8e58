"""A player's games for the profile: counts per game, the last records with their places,
and karuta take times by card over all their karuta games. Read through the match layer's
Seat.user; a guest's or a deleted player's seats name nobody and are not counted."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from gamekit import Outcome, registry
from matches.models import Action, Match, Seat
from matches.outcome import FORFEIT_LINES, ranked
from poems.kimariji import kimariji_kana

RECENT = 50
TAKE_MATCHES = 300  # the karuta games whose take times are read, newest first


@dataclass(frozen=True)
class RecentGame:
    record_id: str
    game: str
    game_name: str
    finished_at: object
    place: int
    seats: int
    forfeited: bool
    rated: bool


@dataclass(frozen=True)
class CardTimes:
    poem: int
    kimariji: str
    takes: int  # readings where this player touched the card
    missed: int  # readings of the card this player did not touch
    median_ms: float | None  # after the deciding kana


def _finished_seats(user):
    return Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)


def played_by_game(user) -> list[tuple[str, int]]:
    counts = _finished_seats(user).values("match__game").annotate(n=Count("match", distinct=True))
    names = {g.slug: str(g.name) for g in registry.all()}
    return sorted(
        ((names.get(row["match__game"], row["match__game"]), row["n"]) for row in counts),
        key=lambda pair: -pair[1],
    )


def recent_games(user, count: int = RECENT) -> list[RecentGame]:
    """The last finished matches with a record each (made now where none was asked for
    yet), linked by record id: never the match's id, which is the room's address."""
    from records import store
    from records.models import Record

    seats = list(
        _finished_seats(user)
        .select_related("match")
        .order_by("-match__finished_at", "-match__updated")[: count * 2]
    )
    mine: dict = {}
    for seat in seats:  # one person at two seats of a shared device: listed once
        mine.setdefault(seat.match_id, seat)
    chosen = list(mine.values())[:count]
    ids = [seat.match_id for seat in chosen]
    places = places_of(ids)
    records = dict(Record.objects.filter(match_id__in=ids).values_list("match_id", "id"))
    names = {g.slug: str(g.name) for g in registry.all()}
    found = []
    for seat in chosen:
        match = seat.match
        record_id = records.get(match.pk)
        if record_id is None:
            made = store.for_match(match.pk)
            if made is None:
                continue
            record_id = made.pk
        place, seat_count, forfeited = places[match.pk][seat.index]
        found.append(
            RecentGame(record_id, match.game, names.get(match.game, match.game),
                       match.finished_at or match.updated, place, seat_count, forfeited,
                       match.rated)
        )  # fmt: skip
    return found


def places_of(match_ids: list) -> dict:
    """{match id: {seat index: (place, seats, forfeited)}} for finished matches, in three
    queries for all of them: matches.outcome.outcome_of's places (the game's places, then
    forfeited seats after the rest, ties shared), which takes three queries per match. A
    test holds the two equal."""
    matches = {m.pk: m for m in Match.objects.filter(pk__in=match_ids).only("outcome")}
    indexes: dict = defaultdict(list)
    for match_id, index in Seat.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "index"
    ):
        indexes[match_id].append(index)
    forfeited: dict = defaultdict(set)
    lines = Action.objects.filter(match_id__in=match_ids, seat__isnull=False).filter(
        Q(kind=Action.Kind.ROOM) | Q(actor=Action.Actor.TIMEOUT)
    )
    for match_id, seat, kind, actor, action in lines.values_list(
        "match_id", "seat", "kind", "actor", "action"
    ):
        kind_of = (action or {}).get("type")
        if actor == Action.Actor.TIMEOUT or (kind == Action.Kind.ROOM and kind_of in FORFEIT_LINES):
            forfeited[match_id].add(seat)
    result = {}
    for match_id, match in matches.items():
        order = sorted(indexes[match_id])
        game_places = Outcome.from_json(match.outcome or {}).places
        raw = [
            (game_places[i] if isinstance(game_places[i], int) else len(order))
            if len(game_places) == len(order)
            else 1
            for i in order
        ]
        gone = [i in forfeited[match_id] for i in order]
        result[match_id] = {
            i: (place, len(order), lost)
            for i, place, lost in zip(order, ranked(raw, gone), gone, strict=True)
        }
    return result


def karuta_take_times(user, matches: int = TAKE_MATCHES) -> list[CardTimes]:
    """Per card, this player's times after the deciding kana over their karuta games (the
    readings' result lines), slowest first, missed readings counted apart: solo practice's
    "slowest cards" over every game."""
    seat_of = dict(
        _finished_seats(user)
        .filter(match__game="karuta")
        .order_by("-match__finished_at")
        .values_list("match_id", "index")[:matches]
    )
    if not seat_of:
        return []
    times: dict[int, list[float]] = defaultdict(list)
    missed: dict[int, int] = defaultdict(int)
    rows = Action.objects.filter(match_id__in=list(seat_of), kind=Action.Kind.GAME)
    for match_id, events in rows.values_list("match_id", "events").iterator():
        seat = seat_of[match_id]
        for event in events or ():
            if not isinstance(event, dict) or event.get("type") != "result" or event.get("dead"):
                continue
            poem = event.get("poem")
            reach = next((t for s, t in event.get("reaches") or () if s == seat), None)
            decided = _decided(event)
            if reach is None or decided is None:
                missed[poem] += 1
            else:
                times[poem].append(reach - decided)
    cards = [
        CardTimes(
            poem,
            kimariji_kana(poem),
            len(times[poem]),
            missed[poem],
            round(statistics.median(times[poem])) if times[poem] else None,
        )
        for poem in set(times) | set(missed)
    ]
    return sorted(cards, key=lambda c: (c.median_ms is None, -(c.median_ms or 0), c.poem))


def _decided(event: dict) -> float | None:
    """The deciding kana's time: the taker's touch less its time after the kana."""
    if event.get("t") is None or event.get("after_kimariji") is None:
        return None
    return event["t"] - event["after_kimariji"]


def export_games(user) -> list[dict]:
    """Every finished game the player sat at, for their data export: the record's id (never
    the match id), game, mode, when, their seat's colour and place."""
    from records import store
    from records.models import Record

    seats = list(_finished_seats(user).select_related("match").order_by("match__finished_at"))
    ids = list({seat.match_id for seat in seats})
    places = places_of(ids)
    records = dict(Record.objects.filter(match_id__in=ids).values_list("match_id", "id"))
    games = []
    for seat in seats:
        match = seat.match
        record_id = records.get(match.pk)
        if record_id is None:
            made = store.for_match(match.pk)
            record_id = made.pk if made else None
            records[match.pk] = record_id
        place, seat_count, forfeited = places[match.pk][seat.index]
        finished = match.finished_at or match.updated
        games.append(
            {"record": record_id, "game": match.game, "mode": match.mode,
             "settings": match.settings, "rated": match.rated, "finished": finished.isoformat(),
             "seat": seat.index, "colour": seat.colour, "place": place, "seats": seat_count,
             "forfeited": forfeited}
        )  # fmt: skip
    return games
