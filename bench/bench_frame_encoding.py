"""Which encoder writes the match server's state frames (issue 40, goal 3): the standard
library's json, orjson and msgspec, on the frames a real match sends.

    .venv/bin/python bench/bench_frame_encoding.py [--matches 6] [--players 4] [--rounds 5]

Bozu friend matches (every seat taken) are played to the end in this process on a fresh
SQLite file, as bench_move_cost.py does; after each move every seat's and a spectator's
state frame is built from the process snapshot (`frames.cached_frame`). The frames are then
encoded, each encoder on the same list, `--rounds` times (best round kept):

- json whole: `json.dumps` of each frame (compact, ensure_ascii=False, allow_nan=False);
- frames.encode: the server's encoder;
- orjson whole / msgspec whole: each frame encoded whole by the library (msgspec only if
  installed: it is not one of the site's dependencies);
- orjson shared: each frame's shared parts (its view, its log entries) encoded once per
  snapshot and embedded with `orjson.Fragment`, the rest encoded per frame.

Every encoding is checked to decode to the same value. Prints µs per frame (this thread's
CPU) and the mean frame size. Asserts nothing else.
"""

from __future__ import annotations

import argparse
import json
import time

import django_env  # bench/: the script's own folder is on sys.path

django_env.in_process("bench-frame-encoding-")


def collect(matches: int, players: int) -> list[dict]:
    import gamekit
    from matches import frames, services, snapshots
    from tests.support.game_settings import bozu_settings

    game = gamekit.registry.get("bozu")
    out = []
    for _ in range(matches):
        match, _token = services.create_match("bozu", bozu_settings(players), "friend")
        for _seat in range(players - 1):
            services.join(match.invite_code)
        services.presence(match.id, range(players), +1)
        sent: list[int | None] = [None] * (players + 1)
        while True:
            snap = snapshots.current(match.id)
            to_act = list(game.to_act(snap.state)) if snap.match.status == "playing" else []
            if not to_act:
                break
            services.submit_action(match.id, [to_act[0]], {"type": "draw"}, seat=to_act[0])
            seq = snapshots.peek(match.id).match.seq
            viewers = [[seat] for seat in range(players)] + [[]]  # every seat and a spectator
            for n, held in enumerate(viewers):
                frame = frames.cached_frame(match.id, frames.Viewer.of(held), sent[n], seq)
                sent[n] = frame.seq
                out.append(frame)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import orjson

    try:
        import msgspec  # measured against orjson; not a dependency of the site
    except ImportError:
        msgspec = None

    from matches import frames

    built = collect(args.matches, args.players)
    plain = [f.wire() for f in built]  # the same values, as plain dicts

    def json_whole(frame: dict) -> bytes:
        return json.dumps(
            frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode()

    def server(frame: frames.StateFrame) -> bytes:
        frame.text = None  # encoded anew each round: `encode` keeps a frame's text
        return frames.encode(frame).encode()

    msgspec_encoder = msgspec.json.Encoder() if msgspec else None

    def orjson_shared_all() -> list[bytes]:
        # Shared parts keyed by the object itself, as the snapshot's cache is: one encoding
        # per distinct view or entries list, whatever the number of viewers.
        cache: dict[int, tuple[object, orjson.Fragment]] = {}

        def fragment(value: object) -> object:
            if value is None:
                return None
            hit = cache.get(id(value))
            if hit is None or hit[0] is not value:
                hit = (value, orjson.Fragment(orjson.dumps(value)))
                cache[id(value)] = hit
            return hit[1]

        return [
            orjson.dumps({**f, "view": fragment(f["view"]), "events": fragment(f["events"])})
            for f in plain
        ]

    runs = {
        "json whole": lambda: [json_whole(f) for f in plain],
        "frames.encode (the server's)": lambda: [server(f) for f in built],
        "orjson whole": lambda: [orjson.dumps(f) for f in plain],
        "orjson shared (Fragment)": orjson_shared_all,
    }
    if msgspec_encoder is not None:
        runs["msgspec whole"] = lambda: [msgspec_encoder.encode(f) for f in plain]
    else:
        print("msgspec is not installed (pip install msgspec to compare it)")
    expected = [json.loads(json_whole(f)) for f in plain]
    print(f"{len(built)} state frames of {args.matches} Bozu matches of {args.players} seats")
    print(f"{'encoder':32} {'µs/frame (CPU)':>15}")
    for name, run in runs.items():
        best = None
        for _ in range(args.rounds):
            start = time.thread_time()
            texts = run()
            spent = time.thread_time() - start
            best = spent if best is None else min(best, spent)
        assert [json.loads(t) for t in texts] == expected, name
        print(f"{name:32} {1e6 * best / len(built):15.1f}")
    sizes = [len(json_whole(f)) for f in plain]
    print(f"mean frame: {sum(sizes) // len(sizes)} bytes")


if __name__ == "__main__":
    main()
