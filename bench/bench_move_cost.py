"""What one move costs the match server, piece by piece, without sockets (issue 14).

    .venv/bin/python bench/bench_move_cost.py [--matches 12] [--players 4] [--group 1]

In this process, on the embedded defaults (a fresh SQLite file in a temporary VAR_DIR), or
on the PostgreSQL database --database-url names (its tables are migrated, matches added):
Bozu friend matches with every seat taken are played to the end through
`services.submit_action` (decide, lock, log row, snapshot, commit: what the socket's
database thread runs), and after each move every seat's state frame is built from the
process snapshot (`frames.cached_frame`, what a notice makes a socket do) and encoded
as the consumer encodes it. Prints ms per move, wall and this thread's CPU, for each.

Read it next to bench_matches.py's CPU table: a move's socket I/O costs about what its
floor round costs, so these pieces are the rest of the server's work. Prints figures,
asserts nothing.
"""

from __future__ import annotations

import argparse
from typing import Any

import django_env  # bench/: the script's own folder is on sys.path
from django_env import Stopwatch

django_env.in_process("bench-move-cost-")


def main() -> None:
    from tests.support.game_settings import bozu_settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--group", type=int, default=1,
        help="matches played side by side, one act of each a transaction (as group commit)",
    )  # fmt: skip
    parser.add_argument(
        "--lease-matches", type=int, default=200, help="matches whose leases one beat renews"
    )
    parser.add_argument("--database-url", help="e.g. postgres://postgres@127.0.0.1:5432/name")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import gamekit
    from matches import frames, services, snapshots
    from matches.groupcommit import GroupCommit

    game = gamekit.registry.get("bozu")
    settings = bozu_settings(args.players)

    def draw(match_id: Any, seat: int) -> Any:
        return services.submit_action(match_id, [seat], {"type": "draw"}, seat=seat)

    # The socket's database thread's own path: a group of acts (one, or with --group one of
    # each match) in one transaction (groupcommit.GroupCommit._commit; no event loop here).
    committer = GroupCommit(draw)

    @services.collecting_notices
    def write_group(acts: list[tuple[Any, int]]) -> None:
        for ok, value in committer._commit([(act, {}, None) for act in acts]):
            if not ok:
                raise value

    submit, build, encode = Stopwatch(), Stopwatch(), Stopwatch()
    moves = frame_bytes = 0
    for first in range(0, args.matches, args.group):
        playing = {}  # match id -> what each seat's socket was sent
        for _ in range(min(args.group, args.matches - first)):
            match, _token = services.create_match("bozu", settings, "friend")
            for _seat in range(args.players - 1):
                services.join(match.invite_code)
            # As behind sockets: every seat present (an absent one's away time is saved
            # per move).
            services.presence(match.id, range(args.players), +1)
            playing[match.id] = [None] * args.players
        while playing:
            acts = []
            for match_id in list(playing):
                snap = snapshots.current(match_id)
                to_act = list(game.to_act(snap.state)) if snap.match.status == "playing" else []
                if to_act:
                    acts.append((match_id, to_act[0]))
                else:
                    del playing[match_id]
            if not acts:
                break
            # The group is told afterwards (collected, not sent here).
            with submit:
                write_group(acts)
            moves += len(acts)
            for match_id, _seat in acts:
                sent = playing[match_id]
                seq = snapshots.peek(match_id).match.seq
                for seat in range(args.players):
                    with build:
                        frame = frames.cached_frame(
                            match_id, frames.Viewer.of([seat], None, None), sent[seat], seq
                        )
                    with encode:
                        text = frames.encode(frame)
                    sent[seat] = frame.seq
                    frame_bytes += len(text.encode())
    database = "PostgreSQL" if args.database_url else "SQLite"
    print(
        f"{moves} moves in {args.matches} Bozu matches of {args.players}, {database}, one "
        f"thread, {args.group} match(es) a transaction"
    )
    print(f"{'piece (per move)':44} {'wall ms':>8} {'CPU ms':>8}")
    for name, watch in (
        ("submit_action (decide, write, commit)", submit),
        (f"build {args.players} state frames", build),
        (f"encode {args.players} state frames (orjson)", encode),
    ):
        print(f"{name:44} {1000 * watch.wall / moves:8.3f} {1000 * watch.cpu / moves:8.3f}")
    print(f"mean state frame: {frame_bytes // (moves * args.players)} bytes")

    # The lease renewal: every MATCHES_PRESENCE_HEARTBEAT_S a process renews the leases of
    # every seat it holds a socket for (driver.LocalDriver._keep), on the database thread.
    held = {}
    for _ in range(args.lease_matches):
        match, _token = services.create_match("bozu", settings, "friend")
        for _seat in range(args.players - 1):
            services.join(match.invite_code)
        services.presence(match.id, range(args.players), +1)
        held[match.id] = list(range(args.players))
    renew, beats = Stopwatch(), 20
    for _ in range(beats):
        with renew:
            services.renew_leases(held)
    seats = args.lease_matches * args.players
    print(f"{f'renew the leases of {seats} seats (one beat)':44} "
          f"{1000 * renew.wall / beats:8.3f} {1000 * renew.cpu / beats:8.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
