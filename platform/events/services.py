"""Running events: joining, starting rounds on time (once), boards as ordinary matches,
results from `match_finished`, the arena's waves, the organiser's tools (docs/events.md).

Exactly once: a round is started by whoever's conditional UPDATE sets its `started_at`
first, in the same transaction that pairs it and makes its boards. A second process's
UPDATE waits on the row and then matches nothing; a process killed before its commit leaves
nothing behind, and the next tick starts the round. Then each board gets its match in a
transaction of its own under the board's row lock (`open_boards`; several threads at once
for a big round), so a board has one match whoever opens it. A result is recorded once per
match id under the round's (or, in an arena, the event's) row lock."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings as django_settings
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models import F

from events import arena, knockout, swiss, tables
from events.gamechoice import CHOICES, Choice, in_division
from events.models import Board, Entrant, Event, Round
from lobby.pairing import Member, fill_tables
from matches.services import SeatSpec, create_match_for
from ratings.services import current, current_many, rating_key

log = logging.getLogger(__name__)
MODE = "friend"  # boards are rated like friend rooms (ratings.rules.RATED_MODES)
SEAT_TTL = 6 * 3600  # how long a board's seat token waits in the cache for its person
OPEN_BATCH = 8  # boards whose matches one transaction creates
STALLED_S = 5  # a board still without its match this long after it was made: its opener died
TABLE_WAIT_S = 30  # an arena's table game: whoever waited this long is seated with CPUs


class EventError(Exception):
    """A refused request: `code` names why (views translate it)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def choice(event: Event) -> Choice:
    return CHOICES[event.choice]


def is_table(event: Event) -> bool:
    return choice(event).table


def key_of(event: Event) -> str | None:
    return rating_key(event.game, MODE, event.settings)


def bump(event_id: int) -> None:
    Event.objects.filter(pk=event_id).update(version=F("version") + 1)


def seat_cache():
    return caches["events"]


def seat_key(board_id: int, user_id: int) -> str:
    return f"events:seat:{board_id}:{user_id}"


def take_seat(board: Board, user_id: int) -> str | None:
    """This person's seat token for their board (the token is never in the database)."""
    return seat_cache().get(seat_key(board.pk, user_id))


# ---- creating and joining -------------------------------------------------------------


def create_event(organiser: Any, **fields: Any) -> Event:
    with transaction.atomic():
        event = Event.objects.create(organiser=organiser, **fields)
        schedule_start(Round.objects.create(event=event, number=1, due_at=event.starts_at))
    return event


def schedule_start(rnd: Round) -> None:
    """With Celery (MATCHES_CELERY), a task at the round's due time starts it to the second;
    the beat's tick (every second) starts it anyway if the task is lost or late."""
    if not getattr(django_settings, "MATCHES_CELERY", False):
        return
    round_id, due_at = rnd.pk, rnd.due_at

    def send() -> None:
        try:
            current_app.send_task("events.start_round", (round_id,), eta=due_at)
        except Exception as exc:
            log.warning("could not queue a round start: %s", type(exc).__name__)

    transaction.on_commit(send)


def entrant_rating(event: Event, user_id: int) -> float:
    key = key_of(event)
    return current(user_id, key).rating if key else 1500.0


def join(event: Event, user: Any, key: str | None = None) -> Entrant:
    by_link = event.by_link and user.pk != event.organiser_id  # the organiser has the link
    if by_link and not hmac.compare_digest(str(key or ""), event.join_key):
        raise EventError("link_only")
    rating = entrant_rating(event, user.pk)
    with transaction.atomic():
        # Under the event's row lock, which a round's start takes before it reads the
        # field: an entrant is in round 1's pairing, or is refused as late; never lost.
        event = Event.objects.select_for_update().get(pk=event.pk)
        existing = Entrant.objects.filter(event=event, user=user).first()
        if existing is not None:
            if existing.withdrawn:
                raise EventError("withdrawn")
            return existing
        if event.status == Event.Status.FINISHED:
            raise EventError("finished")
        if event.status == Event.Status.RUNNING and event.kind != Event.Kind.ARENA:
            raise EventError("started")  # a bracket or a Swiss takes no one once it runs
        if not in_division(event.division, rating):
            raise EventError("division")
        entrant = Entrant.objects.create(event=event, user=user, rating=rating)
        if event.status == Event.Status.RUNNING:  # a late arena entrant waits for a wave
            Entrant.objects.filter(pk=entrant.pk).update(waiting_since=entrant.joined)
        bump(event.pk)
    return entrant


# ---- boards ----------------------------------------------------------------------------


def cpu_level(event: Event) -> str:
    """The CPU that fills a table's empty seats: the game's middle level."""
    import gamekit

    levels = gamekit.registry.get(event.game).cpu_levels
    return levels[len(levels) // 2].key if levels else ""


def seat_specs(event: Event, people: list[Entrant | None]) -> list[SeatSpec]:
    """The board's seats: its entrants, the CPU where a table has none. EVENTS_CPU_BOARDS
    (tests and the bench only) seats the CPU at that level instead, so a simulated event
    plays itself."""
    level = getattr(django_settings, "EVENTS_CPU_BOARDS", None)
    if level:
        return [SeatSpec(cpu_level=level) for _ in people]
    return [
        SeatSpec(cpu_level=cpu_level(event)) if e is None else SeatSpec(user_id=e.user_id)
        for e in people
    ]


def _new_board(
    event: Event, rnd: Round | None, position: int, a: Entrant, b: Entrant | None, now: datetime
) -> Board:
    """A board (not saved): a bye or a walkover is decided at once; any other waits for its
    match (`open_boards`, right after the commit that made it)."""
    board = Board(event=event, round=rnd, position=position, a=a, b=b, created=now)
    if b is None:
        board.result, board.winner, board.finished_at = Board.Result.BYE, a, now
    elif a.withdrawn or b.withdrawn:
        board.result, board.finished_at = Board.Result.WITHDRAWN, now
        board.winner = b if a.withdrawn and not b.withdrawn else a
    return board


def _new_table(
    event: Event, rnd: Round | None, position: int, seated: list[Entrant | None], now: datetime
) -> Board:
    """A table game's board (not saved): entrants by seat, None for the CPU's seats."""
    first = next(e for e in seated if e is not None)
    seats = [e.pk if e is not None else None for e in seated]
    return Board(event=event, round=rnd, position=position, a=first, seats=seats, created=now)


def board_people(board: Board, by_id: dict[int, Entrant] | None = None) -> list[Entrant | None]:
    """The board's entrants by seat (None: the CPU's seat)."""
    if not board.seats:
        return [board.a, board.b]
    if by_id is None:
        wanted = [eid for eid in board.seats if eid is not None]
        by_id = Entrant.objects.select_related("user").in_bulk(wanted)
    return [by_id[eid] if eid is not None else None for eid in board.seats]


def _start_match(event: Event, people: list[Entrant | None]) -> tuple[Any, dict[int, str]]:
    """A new match for a board's seats: its id, and each person's seat token by user id."""
    match, tokens = create_match_for(
        event.game, event.settings, MODE, seat_specs(event, people), rated=event.rated
    )
    return match.pk, {e.user_id: tokens.get(i) for i, e in enumerate(people) if e is not None}


def _hold_tokens(board_id: int, tokens: dict[int, str | None]) -> None:
    held = {seat_key(board_id, user_id): token for user_id, token in tokens.items() if token}
    if held:  # only once committed: a rolled-back board leaves no token behind
        transaction.on_commit(lambda: seat_cache().set_many(held, SEAT_TTL))


def open_boards(event_id: int) -> int:
    """Start the match of every pending board of the event that has none yet; return how
    many. A board's match is created in the transaction that sets its match_id under the
    board's row lock (others skip locked rows), so each board gets one match whoever runs
    this at once, and a process killed half-way leaves the rest for the next tick. Many
    boards (a round of a big knockout) are opened by EVENTS_OPEN_WORKERS threads: creating
    a match is mostly waiting on the database."""
    todo = Board.objects.filter(
        event_id=event_id, result=Board.Result.PENDING, match_id__isnull=True
    ).count()
    if not todo:
        return 0
    workers = getattr(django_settings, "EVENTS_OPEN_WORKERS", 4)
    if connection.vendor == "sqlite" or todo < 8 or workers <= 1:
        return _open_all(event_id)
    with ThreadPoolExecutor(workers) as pool:
        return sum(pool.map(_open_all_in_thread, [event_id] * workers))


def _open_all(event_id: int) -> int:
    opened = 0
    while found := _open_some(event_id):
        opened += found
    return opened


def _open_all_in_thread(event_id: int) -> int:
    try:
        return _open_all(event_id)
    finally:
        connection.close()  # the thread's own connection


def _open_some(event_id: int) -> int:
    """Up to OPEN_BATCH boards' matches in one transaction (one commit for them all: most of
    a match's cost here is its commit)."""
    with transaction.atomic():
        boards = list(
            Board.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("a", "b", "event")
            .filter(event_id=event_id, result=Board.Result.PENDING, match_id__isnull=True)
            .order_by("pk")[:OPEN_BATCH]
        )
        for board in boards:
            board.match_id, tokens = _start_match(board.event, board_people(board))
            board.save(update_fields=["match_id"])
            _hold_tokens(board.pk, tokens)
    return len(boards)


# ---- starting rounds -------------------------------------------------------------------


def start_due_rounds(now: datetime, before_commit: Callable[[Round], None] | None = None) -> int:
    """Start every round whose time has come; return how many this call started."""
    started = 0
    for round_id in Round.objects.due(now).order_by("due_at").values_list("pk", flat=True):
        started += start_round(round_id, now, before_commit)
    return started


def start_round(
    round_id: int, now: datetime, before_commit: Callable[[Round], None] | None = None
) -> bool:
    """Claim the round and make its boards in one transaction; False if it was started
    already (by another process) or is not due. `before_commit` is for the tests of this
    guarantee only."""
    with transaction.atomic():
        claimed = Round.objects.filter(
            pk=round_id, started_at__isnull=True, due_at__lte=now, event__paused=False
        ).update(started_at=now)
        if not claimed:
            return False
        rnd = Round.objects.select_related("event").get(pk=round_id)
        event = Event.objects.select_for_update().get(pk=rnd.event_id)
        if event.kind == Event.Kind.ARENA:
            _open_arena(event, now)
        else:
            _pair_round(event, rnd, now)
        if event.status == Event.Status.SCHEDULED:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        bump(event.pk)
        if before_commit is not None:
            before_commit(rnd)
    open_boards(rnd.event_id)
    return True


def _refresh_ratings(event: Event, entrants: list[Entrant]) -> None:
    key = key_of(event)
    if not key:
        return
    views = current_many([e.user_id for e in entrants], key)
    changed = [e for e in entrants if e.rating != views[e.user_id].rating]
    for entrant in changed:
        entrant.rating = views[entrant.user_id].rating
    Entrant.objects.bulk_update(changed, ["rating"], batch_size=500)


def seeding(entrants: list[Entrant]) -> list[knockout.Entrant]:
    return [knockout.Entrant(e.pk, e.rating, e.pk) for e in entrants]


def _pair_round(event: Event, rnd: Round, now: datetime) -> None:
    active = list(event.entrants.filter(withdrawn=False).order_by("pk"))
    by_id = {e.pk: e for e in event.entrants.all()}
    if rnd.number == 1:
        _refresh_ratings(event, active)
        if len(active) < 2:  # nobody to play: the event ends with no winner
            event.status = Event.Status.FINISHED
            event.save(update_fields=["status"])
            return
    if is_table(event):
        boards = _seat_round(event, rnd, active, now)
    elif event.kind == Event.Kind.KNOCKOUT:
        if rnd.number == 1:
            pairs = knockout.first_round(knockout.seed(seeding(active)))
        else:
            before = list(event.boards.filter(round__number=rnd.number - 1).order_by("position"))
            pairs = knockout.next_round(
                [knockout.Pair(b.a_id, b.b_id) for b in before],
                {i: b.winner_id for i, b in enumerate(before) if b.result != Board.Result.BYE},
            )
        rows = [(by_id[p.a], by_id[p.b] if p.b is not None else None) for p in pairs]
        boards = [_new_board(event, rnd, i, a, b, now) for i, (a, b) in enumerate(rows)]
    else:
        games = swiss.pair_round(seeding(active), swiss_history(event), event.rounds_total)
        rows = [(by_id[g.a], by_id[g.b] if g.b is not None else None) for g in games]
        boards = [_new_board(event, rnd, i, a, b, now) for i, (a, b) in enumerate(rows)]
    Board.objects.bulk_create(boards)
    if all(board.decided for board in boards):
        _round_decided(event, rnd, now)


def _seat_round(event: Event, rnd: Round, active: list[Entrant], now: datetime) -> list[Board]:
    """A table game's round: tables of neighbours in the standings (round 1: by rating),
    mixed so that fewer people share a table again (tables.mix)."""
    history = table_history(event)
    order = [row.id for row in tables.standings(table_entrants(active), history)]
    by_id = {e.pk: e for e in active}
    chosen = choice(event)
    ratings = {e.pk: e.rating for e in active}
    met = tables.met_pairs(history)
    seated = tables.seat_tables(order, chosen.seats, ratings, chosen.teams, met=met)
    return [
        _new_table(event, rnd, i, [by_id[x] if x is not None else None for x in table], now)
        for i, table in enumerate(seated)
    ]


def table_entrants(entrants: list[Entrant]) -> list[tuple[int, float, int]]:
    return [(e.pk, e.rating, e.pk) for e in entrants]


def table_history(event: Event) -> list[tables.Played]:
    """Every played table of the event (a pending or withdrawn one counts nothing)."""
    rows = event.boards.filter(result__in=[Board.Result.PLAYED, Board.Result.FORFEIT]).values_list(
        "seats", "places"
    )
    return [tables.Played(seats, places) for seats, places in rows if seats]


def swiss_history(event: Event) -> list[list[swiss.Game]]:
    rounds: dict[int, list[swiss.Game]] = {}
    for board in event.boards.select_related("round").order_by("round__number", "position"):
        rounds.setdefault(board.round.number, []).append(
            swiss.Game(board.a_id, board.b_id, board.winner_id)
        )
    return [rounds[n] for n in sorted(rounds)]


def _round_decided(event: Event, rnd: Round, now: datetime) -> None:
    """Every board of the round is decided: the next round gets its time, or the event ends."""
    rnd.decided_at = now
    rnd.save(update_fields=["decided_at"])
    last = (
        event.boards.filter(round=rnd).count() == 1
        if event.kind == Event.Kind.KNOCKOUT
        else rnd.number >= (event.rounds_total or 1)
    )
    if last:
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
    else:
        due = now + timedelta(seconds=event.break_seconds)
        following, made = Round.objects.get_or_create(
            event=event, number=rnd.number + 1, defaults={"due_at": due}
        )
        if made:
            schedule_start(following)


# ---- results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    winner: int | None  # seat index; None: a draw (arena only)
    forfeit: bool


def decide(outcome: Any) -> Decision:
    """The board's result from the match's outcome: the better place wins; a forfeited seat
    is behind any other (the match layer puts it last already). A tie (both forfeited, or a
    shared place) goes to seat 0 — the better seed of a knockout pair — except in an arena,
    where it is a draw."""
    seats = sorted(outcome.seats, key=lambda s: s.index)
    first, second = seats[0], seats[1]
    forfeit = first.forfeited or second.forfeited
    one, two = (first.forfeited, first.place), (second.forfeited, second.place)
    if one == two:
        return Decision(None, forfeit)
    return Decision(0 if one < two else 1, forfeit)


def record_outcome(outcome: Any, now: datetime | None = None) -> bool:
    """Advance the event whose board this match was; False if it was no board of ours or
    was recorded already (a re-delivered signal, the sweep)."""
    found = (
        Board.objects.filter(match_id=outcome.match_id, result=Board.Result.PENDING)
        .values_list("pk", "round_id", "event_id")
        .first()
    )
    if found is None:
        return False
    board_id, round_id, event_id = found
    now = now or outcome.finished_at
    with transaction.atomic():
        # One writer per round (arena: per event), so "was that the last board?" is exact.
        if round_id is not None:
            rnd = Round.objects.select_for_update().get(pk=round_id)
            event = Event.objects.get(pk=event_id)
        else:
            rnd = None
            event = Event.objects.select_for_update().get(pk=event_id)
        board = Board.objects.select_related("a", "b").get(pk=board_id)
        if board.decided:
            return False
        if board.is_table:
            _record_table(board, outcome, now)
        else:
            decision = decide(outcome)
            board.result = Board.Result.FORFEIT if decision.forfeit else Board.Result.PLAYED
            tie_winner = None if event.kind == Event.Kind.ARENA else board.a
            board.winner = (
                (board.a, board.b)[decision.winner] if decision.winner is not None else tie_winner
            )
            board.finished_at = now
            board.save(update_fields=["result", "winner", "finished_at"])
        if rnd is None:
            (_arena_after_table if board.is_table else _arena_after)(event, board, now)
        elif not rnd.boards.filter(result=Board.Result.PENDING).exists():
            _round_decided(event, rnd, now)
        bump(event.pk)
    if rnd is None:
        open_boards(event_id)  # the wave's new boards
    return True


def _record_table(board: Board, outcome: Any, now: datetime) -> None:
    """A table's places, seat by seat, from the match's outcome (events.tables scores
    them). The board's winner is the entrant in first place at the lowest seat, if any."""
    places = [seat.place for seat in sorted(outcome.seats, key=lambda seat: seat.index)]
    forfeited = any(seat.forfeited for seat in outcome.seats if board.seats[seat.index] is not None)
    board.places = places
    board.result = Board.Result.FORFEIT if forfeited else Board.Result.PLAYED
    firsts = [eid for eid, place in zip(board.seats, places, strict=True) if place == 1]
    board.winner_id = next((eid for eid in firsts if eid is not None), None)
    board.finished_at = now
    board.save(update_fields=["places", "result", "winner", "finished_at"])


def sweep(now: datetime) -> int:
    """Catch up on results a lost signal never brought (a process killed after the commit
    that finished a match): every pending board's match, read back from the match layer."""
    from matches.models import Match
    from matches.outcome import outcome_of

    recorded = 0
    pending = Board.objects.filter(
        result=Board.Result.PENDING, match_id__isnull=False, event__status=Event.Status.RUNNING
    ).values_list("match_id", flat=True)
    # One query for which of them finished (the tick runs every second; most are playing).
    finished = Match.objects.filter(pk__in=list(pending), status=Match.Status.FINISHED).values_list(
        "pk", flat=True
    )
    for match_id in finished:
        outcome = outcome_of(match_id)
        if outcome is not None:
            recorded += record_outcome(outcome, now)
    return recorded


# ---- the arena -------------------------------------------------------------------------


def ends_at(event: Event) -> datetime:
    return event.starts_at + timedelta(minutes=event.minutes or 0)


def _open_arena(event: Event, now: datetime) -> None:
    active = list(event.entrants.filter(withdrawn=False))
    _refresh_ratings(event, active)
    event.entrants.filter(withdrawn=False).update(waiting_since=now)
    _wave(event, now)


def _tally(entrant: Entrant) -> arena.Tally:
    return arena.Tally(entrant.score, entrant.run, entrant.games, entrant.wins)


def _arena_after(event: Event, board: Board, now: datetime) -> None:
    for me, them in ((board.a, board.b), (board.b, board.a)):
        if board.winner_id is None:
            result = arena.DRAW
        else:
            result = arena.WIN if board.winner_id == me.pk else arena.LOSS
        tally = arena.record(_tally(me), result)
        me.score, me.run, me.games, me.wins = tally.score, tally.run, tally.games, tally.wins
        me.last_opponent = them
        me.waiting_since = None if me.withdrawn or now >= ends_at(event) else now
        me.save(update_fields=["score", "run", "games", "wins", "last_opponent", "waiting_since"])
    _wave(event, now)


def _arena_after_table(event: Event, board: Board, now: datetime) -> None:
    """A table's seats score as arena results (tables.arena_result), then wait again."""
    people = Entrant.objects.in_bulk(board.entrant_ids())
    seats = len(board.seats)
    for eid, place in zip(board.seats, board.places, strict=True):
        if eid is None:
            continue
        me = people[eid]
        tally = arena.record(_tally(me), tables.arena_result(place, seats))
        me.score, me.run, me.games, me.wins = tally.score, tally.run, tally.games, tally.wins
        me.waiting_since = None if me.withdrawn or now >= ends_at(event) else now
        me.save(update_fields=["score", "run", "games", "wins", "waiting_since"])
    _wave(event, now)


def arena_order(entrants: list[Entrant]) -> list[Entrant]:
    """Arena standings: score, then wins, then rating, then who joined first."""
    return sorted(entrants, key=lambda e: (-e.score, -e.wins, -e.rating, e.pk))


def _wave(event: Event, now: datetime) -> int:
    """Pair everyone waiting (the event's row is locked by the caller); return boards made."""
    if now >= ends_at(event):
        return 0
    waiting = list(event.entrants.filter(withdrawn=False, waiting_since__isnull=False))
    if len(waiting) < 2 and not (waiting and is_table(event)):
        return 0
    if is_table(event):
        return _table_wave(event, waiting, now)
    places = {e.pk: i + 1 for i, e in enumerate(arena_order(waiting))}
    pairs = arena.pair_wave(
        [arena.Waiting(e.pk, places[e.pk], e.last_opponent_id) for e in waiting]
    )
    by_id = {e.pk: e for e in waiting}
    start = event.boards.count()
    boards = [
        _new_board(event, None, start + i, by_id[a], by_id[b], now)
        for i, (a, b) in enumerate(pairs)
    ]
    Board.objects.bulk_create(boards)
    paired = [x for pair in pairs for x in pair]
    Entrant.objects.filter(pk__in=paired).update(waiting_since=None)
    return len(boards)


def _table_wave(event: Event, waiting: list[Entrant], now: datetime) -> int:
    """An arena of a table game: the lobby's `fill_tables` seats the waiting in standings
    order, neighbours together, not at a table with someone of their previous table while
    others could fill it (else together again at once); fewer than a table left wait for
    the next wave, unless one of them has waited TABLE_WAIT_S: then they are all seated,
    the CPU in the empty seats (tables.seat_tables)."""
    chosen = choice(event)
    ordered = arena_order(waiting)
    mates = _last_tables(event, {e.pk for e in waiting})
    members = [
        Member(
            id=e.pk,
            person=str(e.pk),
            rating=float(i),  # the standings order: neighbours sit together
            last_opponents=frozenset(str(x) for x in mates.get(e.pk, ())),
        )
        for i, e in enumerate(ordered)
    ]
    tables_found = fill_tables(members, chosen.seats)
    seated_now = {m.id for table in tables_found for m in table}
    rest = [replace(m, last_opponents=frozenset()) for m in members if m.id not in seated_now]
    # Whoever could sit only with someone of their last table (nobody else is waiting) sits
    # so anyway, as two arena players who just met are paired again if they are the only two.
    tables_found += fill_tables(rest, chosen.seats)
    groups = [[m.id for m in table] for table in tables_found]
    ratings = {e.pk: e.rating for e in waiting}
    groups = [tables.seat_tables(g, chosen.seats, ratings, chosen.teams)[0] for g in groups]
    seated = {x for g in groups for x in g}
    left = [e for e in ordered if e.pk not in seated]
    if left and any(now - e.waiting_since >= timedelta(seconds=TABLE_WAIT_S) for e in left):
        groups += tables.seat_tables([e.pk for e in left], chosen.seats, ratings, chosen.teams)
    if not groups:
        return 0
    by_id = {e.pk: e for e in waiting}
    start = event.boards.count()
    boards = [
        _new_table(event, None, start + i, [by_id[x] if x is not None else None for x in g], now)
        for i, g in enumerate(groups)
    ]
    Board.objects.bulk_create(boards)
    paired = [x for g in groups for x in g if x is not None]
    Entrant.objects.filter(pk__in=paired).update(waiting_since=None)
    return len(boards)


def _last_tables(event: Event, ids: set[int]) -> dict[int, list[int]]:
    """Each of these entrants' previous table mates (from their newest board)."""
    found: dict[int, list[int]] = {}
    recent = event.boards.order_by("-pk").values_list("seats", flat=True)[: 4 * len(ids) + 8]
    for seats in recent:
        for eid in seats or ():
            if eid in ids and eid not in found:
                found[eid] = [x for x in seats if x is not None and x != eid]
    return found


def arena_waves(now: datetime) -> int:
    """A wave for every running arena (the beat's tick), and the end of finished ones."""
    made = 0
    for event_id in Event.objects.running_arenas().values_list("pk", flat=True):
        new = 0
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=event_id)
            if now >= ends_at(event):
                if not event.boards.filter(result=Board.Result.PENDING).exists():
                    event.status = Event.Status.FINISHED
                    event.save(update_fields=["status"])
                    bump(event.pk)
                continue
            new = _wave(event, now)
            if new:
                bump(event.pk)
            made += new
        if new:
            open_boards(event_id)
    return made


def open_stalled(now: datetime) -> int:
    """Boards whose opener died before starting their match (kill -9 after the claim)."""
    stalled = (
        Board.objects.filter(
            result=Board.Result.PENDING,
            match_id__isnull=True,
            created__lt=now - timedelta(seconds=STALLED_S),
        )
        .values_list("event_id", flat=True)
        .distinct()
    )
    return sum(open_boards(event_id) for event_id in stalled)


def tick(now: datetime) -> dict[str, int]:
    """What the beat runs every second."""
    return {
        "rounds": start_due_rounds(now),
        "opened": open_stalled(now),
        "swept": sweep(now),
        "boards": arena_waves(now),
    }


# ---- the organiser's tools -------------------------------------------------------------


def withdraw(event: Event, entrant: Entrant, now: datetime) -> None:
    """Out of the event: a pending board goes to the opponent (its match plays on as an
    ordinary match, no longer counted). A table plays on and counts for the others; the
    withdrawn entrant is seated no more."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk, event=event)
        entrant.withdrawn, entrant.waiting_since = True, None
        entrant.save(update_fields=["withdrawn", "waiting_since"])
        pending = event.boards.filter(result=Board.Result.PENDING)
        for board in pending.filter(a=entrant) | pending.filter(b=entrant):
            if board.is_table:
                continue
            other = board.b if board.a_id == entrant.pk else board.a
            board.result, board.winner, board.finished_at = Board.Result.WITHDRAWN, other, now
            board.save(update_fields=["result", "winner", "finished_at"])
            if board.round_id is None:
                if not other.withdrawn and now < ends_at(event):
                    Entrant.objects.filter(pk=other.pk).update(waiting_since=now)
            else:
                rnd = Round.objects.select_for_update().get(pk=board.round_id)
                if not rnd.boards.filter(result=Board.Result.PENDING).exists():
                    _round_decided(event, rnd, now)
        bump(event.pk)


def repair_board(event: Event, board: Board, now: datetime) -> Board:
    """A fresh match for a pending board (a broken connection, a wrong setting): the old
    match is no longer counted; the same people play again."""
    with transaction.atomic():
        board = (
            Board.objects.select_for_update(of=("self",))
            .select_related("a", "b")
            .get(pk=board.pk, event=event)
        )
        if board.decided or (board.b is None and not board.is_table):
            raise EventError("decided")
        board.match_id, tokens = _start_match(event, board_people(board))
        board.created = now
        board.save(update_fields=["match_id", "created"])
        _hold_tokens(board.pk, tokens)
        bump(event.pk)
    return board


def set_paused(event: Event, paused: bool, now: datetime) -> None:
    """Hold the next round (it starts when resumed, at once if its time has passed)."""
    Event.objects.filter(pk=event.pk).update(paused=paused, version=F("version") + 1)
