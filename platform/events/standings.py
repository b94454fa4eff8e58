"""What the event page, its live fragment and the exports show: the entrants' standings and
every round's boards, read in a fixed number of queries whatever the field's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from events import services, swiss, tables
from events.models import Board, Entrant, Event


@dataclass
class Row:
    place: int
    entrant_id: int
    user_id: int
    handle: str
    rating: float
    withdrawn: bool
    score: float = 0
    games: int = 0
    wins: int = 0
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    on_fire: bool = False
    out_in_round: int | None = None  # knockout: the round they lost (None: still in)


@dataclass
class BoardView:
    id: int
    position: int
    a: str
    b: str | None
    a_id: int
    b_id: int | None
    result: str
    winner: str | None
    match_id: str | None
    # A table game's board: each seat's handle (None: the CPU), team, place and points.
    table: list[SeatView] | None = None


@dataclass
class SeatView:
    handle: str | None
    team: int | None
    place: int | None
    points: int | None


@dataclass
class RoundView:
    number: int | None  # None: the arena's boards
    due_at: Any
    started: bool
    boards: list[BoardView] = field(default_factory=list)


@dataclass
class Table:
    event: Event
    rows: list[Row]
    rounds: list[RoundView]
    champion: str | None


def build(event: Event, arena_boards: int | None = None) -> Table:
    """`arena_boards`: an arena's newest boards only (its standings need none)."""
    entrants = list(Entrant.objects.filter(event=event).select_related("user").order_by("pk"))
    handle = {e.pk: e.user.get_username() for e in entrants}
    boards = Board.objects.filter(event=event).select_related("round")
    if event.kind == Event.Kind.ARENA and arena_boards is not None:
        boards = list(boards.order_by("-pk")[:arena_boards])[::-1]
    else:
        boards = list(boards.order_by("round__number", "position"))
    rounds: dict[Any, RoundView] = {}
    for rnd in event.rounds.order_by("number"):
        rounds[rnd.pk] = RoundView(rnd.number, rnd.due_at, rnd.started_at is not None)
    arena_boards = RoundView(None, None, True)
    teams = services.choice(event).teams
    for board in boards:
        view = BoardView(
            board.pk,
            board.position,
            handle[board.a_id],
            handle.get(board.b_id) if board.b_id else None,
            board.a_id,
            board.b_id,
            board.result,
            handle.get(board.winner_id) if board.winner_id else None,
            str(board.match_id) if board.match_id else None,
            _table_view(board, handle, teams) if board.seats else None,
        )
        (rounds[board.round_id] if board.round_id else arena_boards).boards.append(view)
    round_list = list(rounds.values())
    if event.kind == Event.Kind.ARENA:
        arena_boards.boards.reverse()  # newest first
        round_list = [arena_boards]
    rows = _rows(event, entrants, boards, handle)
    champion = None
    if event.status == Event.Status.FINISHED and event.kind == Event.Kind.KNOCKOUT and boards:
        last = boards[-1]
        champion = handle.get(last.winner_id) if last.winner_id else None
    elif event.status == Event.Status.FINISHED and rows:
        champion = rows[0].handle
    return Table(event, rows, round_list, champion)


def _table_view(board: Board, handle, teams) -> list[SeatView]:
    got = tables.points(board.places) if board.places else [None] * len(board.seats)
    team_of = [0] * teams[0] + [1] * (len(board.seats) - teams[0]) if teams else None
    return [
        SeatView(
            handle.get(eid) if eid is not None else None,
            team_of[i] if team_of else None,
            board.places[i] if board.places else None,
            got[i],
        )
        for i, eid in enumerate(board.seats)
    ]


def _rows(event: Event, entrants: list[Entrant], boards: list[Board], handle) -> list[Row]:
    base = {e.pk: Row(0, e.pk, e.user_id, handle[e.pk], e.rating, e.withdrawn) for e in entrants}
    if event.kind != Event.Kind.ARENA and services.is_table(event):
        history = [
            tables.Played(b.seats, b.places)
            for b in boards
            if b.seats and b.result in (Board.Result.PLAYED, Board.Result.FORFEIT)
        ]
        out = []
        for place, s in enumerate(tables.standings(services.table_entrants(entrants), history), 1):
            row = base[s.id]
            row.place, row.score, row.wins, row.games = place, s.points, s.firsts, s.games
            out.append(row)
        return out
    if event.kind == Event.Kind.ARENA:
        ordered = services.arena_order(entrants)
        for place, e in enumerate(ordered, 1):
            row = base[e.pk]
            row.place, row.score, row.games, row.wins = place, e.score, e.games, e.wins
            row.on_fire = e.run >= 2
        return [base[e.pk] for e in ordered]
    if event.kind == Event.Kind.SWISS:
        history = services.swiss_history(event) if boards else []
        table = swiss.standings(services.seeding(entrants), history)
        out = []
        for place, s in enumerate(table, 1):
            row = base[s.id]
            row.place, row.score, row.wins = place, s.score, s.wins
            row.buchholz, row.sonneborn_berger = s.buchholz, s.sonneborn_berger
            out.append(row)
        return out
    # Knockout: still in first, then by the round they went out in (later first), then seed.
    for board in boards:
        if board.winner_id and board.round is not None:
            loser = board.b_id if board.winner_id == board.a_id else board.a_id
            if loser:
                base[loser].out_in_round = board.round.number
        if board.winner_id:
            base[board.winner_id].wins += board.result != Board.Result.BYE
    for e in entrants:
        if e.withdrawn and base[e.pk].out_in_round is None:
            base[e.pk].out_in_round = 0
    seeded = {eid: i for i, eid in enumerate(services.knockout.seed(services.seeding(entrants)))}
    ordered = sorted(
        base.values(),
        key=lambda r: (r.out_in_round is not None, -(r.out_in_round or 0), seeded[r.entrant_id]),
    )
    for place, row in enumerate(ordered, 1):
        row.place = place
    return ordered


def export(table: Table) -> dict[str, Any]:
    """Results as JSON-able data (the CSV is its standings)."""
    event = table.event
    return {
        "event": {
            "name": event.name,
            "kind": event.kind,
            "game": event.game,
            "settings": event.settings,
            "division": event.division or None,
            "rated": event.rated,
            "starts_at": event.starts_at.isoformat(),
            "status": event.status,
            "champion": table.champion,
        },
        "standings": [
            {
                "place": r.place,
                "handle": r.handle,
                "rating": round(r.rating),
                "score": r.score,
                "wins": r.wins,
                "games": r.games,
                "buchholz": r.buchholz,
                "sonneborn_berger": r.sonneborn_berger,
                "withdrawn": r.withdrawn,
            }
            for r in table.rows
        ],
        "rounds": [
            {
                "number": rv.number,
                "boards": [
                    {
                        "a": b.a,
                        "b": b.b,
                        **(
                            {
                                "seats": [
                                    {
                                        "handle": t.handle,
                                        "team": t.team,
                                        "place": t.place,
                                        "points": t.points,
                                    }
                                    for t in b.table
                                ]
                            }
                            if b.table
                            else {}
                        ),
                        "result": b.result,
                        "winner": b.winner,
                        "record": f"/play/{b.match_id}/record/" if b.match_id else None,
                    }
                    for b in rv.boards
                ],
            }
            for rv in table.rounds
        ],
    }
