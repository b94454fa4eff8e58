"""What telling a match's group costs the sending process on the Redis layer (issue 40): a
move's notice through `matches.broadcast.send_notices`, alone and in a group commit's batch.

    .venv/bin/python bench/bench_notices.py [--redis-url redis://127.0.0.1:6379/1]
        [--groups 1,4,8] [--rounds 500]

One `config.notice_layer.RedisNoticeLayer` (one process) with 8 match groups of 4 channels
of its own, as behind the proxy (every socket of a match on the process that writes it, so
nothing goes to another process's inbox). Each round sends N notices, one per group, each
carrying a move's log row as a move's does, as `send_notices` after a group commit of N
acts; the channels' buffers are emptied between rounds (no consumer runs). Prints this
thread's CPU per notice for each N, and for the floor's message (`{"type": "fan.out"}`) sent
alone. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

MOVE = {
    "seq": 12, "seat": 1, "action": {"type": "draw"},
    "events": [{"type": "drew", "seat": 1, "card": 33, "class": "man"}],
    "actor": "human", "action_id": "a" * 16, "status": "playing", "outcome": None,
    "turns": {"0": 1733550000000}, "due_at": None,
}  # fmt: skip


async def run(url: str, sizes: list[int], rounds: int) -> None:
    from config.notice_layer import RedisNoticeLayer
    from matches import broadcast

    layer = RedisNoticeLayer(hosts=[url], prefix="bench-notices")
    await layer.flush()
    broadcast.get_channel_layer = lambda: layer  # what send_notices tells
    groups = []
    for g in range(max(sizes)):
        channels = [await layer.new_channel() for _ in range(4)]
        for channel in channels:
            await layer.group_add(f"match.bench{g}", channel)
        groups.append((f"match.bench{g}", channels))

    async def timed(send, count: int) -> float:
        started = time.thread_time()
        for _ in range(rounds):
            await send()
            for _group, channels in groups:
                for channel in channels:
                    layer.buffers[channel].clear()
        return (time.thread_time() - started) / (rounds * count) * 1000

    floor = (groups[0][0], {"type": "fan.out"})
    ms = await timed(lambda: layer.group_send(*floor), 1)
    print(f"{'the floor message, group_send':38} {ms:7.4f} ms CPU a message")
    for size in sizes:
        notices = [(g, {"type": "match.notice", "match": "x", "seq": 12, "move": MOVE})
                   for g, _channels in groups[:size]]  # fmt: skip
        ms = await timed(lambda n=notices: broadcast.send_notices(n), size)
        print(f"{f'{size} notice(s) of a group commit':38} {ms:7.4f} ms CPU a notice")
    await layer.flush()
    await layer.close_pools()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/1")
    parser.add_argument("--groups", default="1,4,8")
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()
    os.environ.update(DEBUG="0", SECRET_KEY="bench-" + "k" * 44, HTTPS="0")
    os.environ["REDIS_URL"] = args.redis_url
    import django

    django.setup()
    sizes = [int(n) for n in args.groups.split(",")]
    asyncio.run(run(args.redis_url, sizes, args.rounds))


if __name__ == "__main__":
    main()
