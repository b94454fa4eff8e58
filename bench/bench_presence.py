"""What a socket's open and close cost the match server's database thread (issue 40).

    .venv/bin/python bench/bench_presence.py [--matches 40] [--players 4] [--database-url URL]

In this process, on the embedded defaults (a fresh SQLite file in a temporary VAR_DIR), or
on the PostgreSQL database --database-url names (its tables are migrated, matches added):
Bozu friend matches with every seat taken, as the flat bench_matches.py run plays them:
each seat's socket opens (`presence(+1)`, one seat each; the first finds no snapshot of
the match in this process, the last join dropped it, and reads it), the match is played
to the end, each socket closes (`presence(-1)`). Half the matches call today's
`presence.presence`, half the path it replaced (kept below, `presence_before`),
alternately, in the same run. Prints the presence calls' wall and CPU ms per call, for
each. Asserts that both left the seats and the due time alike (the figures mean nothing
otherwise); prints figures only.
"""

from __future__ import annotations

import argparse

import django_env  # bench/: the script's own folder is on sys.path
from django_env import Stopwatch

django_env.in_process("bench-presence-")


def presence_before(match_id, seat_indices, delta):
    """`presence.presence` as it was before this bench was written (main 40ee47c): the row
    lock, the seats read, one ORM save per seat, the state loaded from its JSON again, the
    match saved, the snapshot read unless this process's was at the match's seq."""
    from django.db import transaction
    from django.utils import timezone

    from matches import snapshots
    from matches.broadcast import after_commit
    from matches.clock import refresh_due
    from matches.log import get_game, lock_match, seats_of

    seat_indices = list(seat_indices)
    if not seat_indices:
        return None
    now = timezone.now()
    with transaction.atomic():
        match = lock_match(match_id)
        seats = seats_of(match)
        for seat in seats:
            if seat.index not in seat_indices or seat.is_cpu:
                continue
            seat.connections = max(0, seat.connections + delta)
            seat.last_seen = now
            if delta > 0:
                seat.disconnected_since = None
                seat.away_ms = 0
            elif seat.connections == 0:
                seat.disconnected_since = now
            seat.save(update_fields=["connections", "last_seen", "disconnected_since", "away_ms"])
        game = get_game(match)
        state = game.load_state(match.state) if match.state is not None else None
        refresh_due(match, game, state, seats, now)
        match.save(update_fields=["due_at", "updated"])
        cached = snapshots.peek(match.pk)
        base = cached if cached and cached.match.seq == match.seq else snapshots.read(match, seats)
        after_commit(match, presence=(seats, base))
        return match.seq


def main() -> None:
    from tests.support.game_settings import bozu_settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--database-url", help="e.g. postgres://postgres@127.0.0.1:5432/name")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import gamekit
    from matches import presence, services, snapshots
    from matches.models import Match, Seat

    game = gamekit.registry.get("bozu")
    settings = bozu_settings(args.players)
    paths = {"before": presence_before, "after": presence.presence}
    first = {name: Stopwatch() for name in paths}  # after the last join: no snapshot yet
    opened = {name: Stopwatch() for name in paths}
    closed = {name: Stopwatch() for name in paths}
    ends: dict[str, list] = {name: [] for name in paths}
    for number in range(2 * args.matches):
        name = ("before", "after")[number % 2]
        call = services.collecting_notices(paths[name])  # as the socket calls it
        match, _token = services.create_match("bozu", settings, "friend")
        for _seat in range(args.players - 1):
            services.join(match.invite_code)  # the last join starts it
        for seat in range(args.players):
            with (opened if seat else first)[name]:
                call(match.id, [seat], +1)
        while True:
            snap = snapshots.current(match.id)
            to_act = list(game.to_act(snap.state)) if snap.match.status == "playing" else []
            if not to_act:
                break
            services.submit_action(match.id, [to_act[0]], {"type": "draw"}, seat=to_act[0])
        for seat in range(args.players):
            with closed[name]:
                call(match.id, [seat], -1)
        fields = ("index", "connections", "away_ms")
        seats = list(Seat.objects.filter(match=match).order_by("index").values_list(*fields))
        ends[name].append((seats, Match.objects.get(pk=match.pk).due_at))
    assert ends["before"] == ends["after"], "the two paths left the matches differently"

    database = "PostgreSQL" if args.database_url else "SQLite"
    print(f"{args.matches} Bozu matches of {args.players} per path, {database}, one thread")
    print(f"{'presence, per call':34} {'wall ms':>8} {'CPU ms':>8}")
    for name in paths:
        watches = (("first open", first[name]), ("open", opened[name]), ("close", closed[name]))
        for what, watch in watches:
            label = f"{name}: {what} ({watch.calls} calls)"
            print(
                f"{label:34} {1000 * watch.wall / watch.calls:8.3f} "
                f"{1000 * watch.cpu / watch.calls:8.3f}"
            )


if __name__ == "__main__":
    main()
