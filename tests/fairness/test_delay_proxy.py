"""The delaying proxy: each direction delayed as configured, the byte stream never
reordered under jitter, and a WebSocket handshake and its frames passing through."""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest

from tests.support.delay_proxy import DelayProxy, Link, ProcessDelayProxy

pytestmark = pytest.mark.timeout(60)


class Stamping:
    """A TCP server that timestamps every line it receives and echoes it back."""

    def __init__(self):
        self.received: list[tuple[float, bytes]] = []
        self.server = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def handle(self, reader, writer):
        while line := await reader.readline():
            self.received.append((time.perf_counter(), line))
            writer.write(line)
            await writer.drain()
        writer.close()

    async def stop(self):
        self.server.close()


async def timed_lines(up: Link, down: Link, count: int, gap: float, seed: int = 1):
    """Send `count` numbered lines through a proxy; returns (sent at, received-by-server
    stamps, echoed back at, echoed bytes)."""
    target = Stamping()
    port = await target.start()
    async with DelayProxy(port, up=up, down=down, seed=seed) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        sent, back = [], []

        async def read_all():
            for _ in range(count):
                line = await reader.readline()
                back.append((time.perf_counter(), line))

        reading = asyncio.ensure_future(read_all())
        for i in range(count):
            sent.append(time.perf_counter())
            writer.write(b"%d\n" % i)
            await writer.drain()
            await asyncio.sleep(gap)
        await asyncio.wait_for(reading, 30)
        writer.close()
    await target.stop()
    return sent, target.received, back


def test_one_way_delays_match_the_links():
    sent, received, back = asyncio.run(timed_lines(Link(60), Link(25), count=20, gap=0.03))
    up = [(at - s) * 1000 for s, (at, _) in zip(sent, received, strict=True)]
    down = [(b - r) * 1000 for (r, _), (b, _) in zip(received, back, strict=True)]
    # Never early; late by no more than the event loop's scheduling slack.
    assert min(up) >= 59 and statistics.median(up) < 70, up
    assert min(down) >= 24 and statistics.median(down) < 35, down


def test_jitter_varies_delays_but_never_reorders():
    count = 300
    sent, received, back = asyncio.run(
        timed_lines(Link(20, 40), Link(5, 40), count=count, gap=0.002, seed=3)
    )
    # The byte streams arrive whole and in order both ways.
    assert b"".join(line for _, line in received) == b"".join(b"%d\n" % i for i in range(count))
    assert [line for _, line in back] == [b"%d\n" % i for i in range(count)]
    up = [(at - s) * 1000 for s, (at, _) in zip(sent, received, strict=True)]
    assert min(up) >= 19
    assert max(up) - min(up) > 15, "jitter should spread the delays"
    # In order: a later line never arrives before an earlier one.
    stamps = [at for at, _ in received]
    assert stamps == sorted(stamps)


def test_websocket_upgrade_and_frames_pass_through():
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    async def echo(ws):
        async for message in ws:
            await ws.send(message)

    async def main():
        async with serve(echo, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            proxy = DelayProxy(port, up=Link(40, 10), down=Link(40, 10), seed=5)
            await proxy.start()
            async with connect(f"ws://127.0.0.1:{proxy.port}/") as ws:
                started = time.perf_counter()
                for i in range(5):
                    await ws.send(f"hello {i}")
                replies = [await ws.recv() for _ in range(5)]
                elapsed = (time.perf_counter() - started) * 1000
            await proxy.stop()
            return replies, elapsed, proxy.connections

    replies, elapsed, connections = asyncio.run(main())
    assert replies == [f"hello {i}" for i in range(5)]
    assert elapsed >= 80
    assert connections == 1


def test_proxy_in_a_process_of_its_own_for_synchronous_callers():
    # The harness's proxies run apart from its many players (tests/support/fairness.py).
    import socket

    with socket.create_server(("127.0.0.1", 0)) as listener:
        target = listener.getsockname()[1]
        with ProcessDelayProxy(target, up=Link(30), down=Link(30)) as proxy:
            started = time.perf_counter()
            with socket.create_connection(("127.0.0.1", proxy.port)) as client:
                conn, _ = listener.accept()
                with conn:
                    client.sendall(b"ping")
                    assert conn.recv(4) == b"ping"
                    conn.sendall(b"pong")
                    assert client.recv(4) == b"pong"
            assert (time.perf_counter() - started) * 1000 >= 60
