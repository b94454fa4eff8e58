"""A TCP proxy on loopback that delays each direction, with jitter, as a slow link would.

    proxy = DelayProxy(target_port=8000, up=Link(200, 40), down=Link(200, 40), seed=1)
    port = await proxy.start()      # connect to 127.0.0.1:port instead of :8000
    ...
    await proxy.stop()

`up` is client -> server, `down` server -> client. Each chunk read on one side is written
to the other `delay_ms + U(0, jitter_ms)` later, but never before the chunk read before it
on the same connection and direction: like TCP, a late segment holds back the ones behind
it, so the byte stream is never reordered (a WebSocket upgrade and its frames pass through
untouched). `ProcessDelayProxy` runs one in a process of its own, for synchronous callers
and for a busy caller's many clients. Loopback only: nothing here listens beyond 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass

CHUNK = 65536


@dataclass(frozen=True)
class Link:
    delay_ms: float = 0.0
    jitter_ms: float = 0.0

    def sample(self, rng: random.Random) -> float:
        """One chunk's delay in seconds."""
        return (self.delay_ms + (rng.uniform(0, self.jitter_ms) if self.jitter_ms else 0)) / 1000


class DelayProxy:
    def __init__(
        self,
        target_port: int,
        up: Link = Link(),
        down: Link = Link(),
        target_host: str = "127.0.0.1",
        seed: int | None = None,
    ) -> None:
        self.target = (target_host, target_port)
        self.up, self.down = up, down
        self.rng = random.Random(seed)
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task] = set()
        self.writers: set[asyncio.StreamWriter] = set()
        self.port: int | None = None
        self.connections = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        for writer in list(self.writers):
            writer.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)
            self.server = None

    async def __aenter__(self) -> DelayProxy:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _accept(self, client_r, client_w) -> None:
        self.connections += 1
        try:
            server_r, server_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.close()
            return
        self.writers |= {client_w, server_w}
        pipes = [
            asyncio.ensure_future(self._pipe(client_r, server_w, self.up)),
            asyncio.ensure_future(self._pipe(server_r, client_w, self.down)),
        ]
        self._spawn(self._close_after(pipes, (client_w, server_w)))

    async def _close_after(self, pipes, writers) -> None:
        """Each direction passes its end-of-stream on (half-close); both done: close."""
        try:
            await asyncio.gather(*pipes)
        finally:
            for pipe in pipes:
                pipe.cancel()
            for writer in writers:
                writer.close()
                self.writers.discard(writer)

    async def _pipe(self, reader, writer, link: Link) -> None:
        """Read chunks as they come; a second task writes each at its release time."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = asyncio.ensure_future(self._send(queue, writer))
        last = 0.0
        try:
            while True:
                data = await reader.read(CHUNK)
                # In order: a chunk is never released before the one read before it.
                last = max(last, loop.time() + link.sample(self.rng))
                await queue.put((last, data))
                if not data:
                    break
            await sender
        except ConnectionError:
            writer.close()  # a reset on one side resets the other
        finally:
            sender.cancel()

    async def _send(self, queue, writer) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                release, data = await queue.get()
                wait = release - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:  # the other side closed: pass it on, after the same delay
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
        except OSError:  # the far side went away; the connection is being torn down
            writer.close()


def _serve_in_process(conn, args, kwargs) -> None:
    async def main() -> None:
        proxy = DelayProxy(*args, **kwargs)
        conn.send(await proxy.start())
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)  # any message: stop
        await proxy.stop()

    asyncio.run(main())


class ProcessDelayProxy:
    """A DelayProxy in a child process of its own (no GIL shared with a busy caller, such
    as a benchmark's many clients): start() returns its port, stop() ends it."""

    def __init__(self, *args, **kwargs) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve_in_process, args=(child, args, kwargs))
        self.port: int | None = None

    def start(self) -> int:
        self.process.start()
        if not self.conn.poll(30):
            raise RuntimeError("the proxy process did not start")
        self.port = self.conn.recv()
        return self.port

    def stop(self) -> None:
        if self.process.is_alive():
            self.conn.send("stop")
            self.process.join(10)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join()

    def __enter__(self) -> ProcessDelayProxy:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
