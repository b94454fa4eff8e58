"""One writer per match (issue 40; docs/matches.md): the only way a socket's act or a timer's
move reaches the database.

In this process every act on a match — a person's act from any of its sockets, and the
server's own move when the match's timer fires — enters one queue (the process's group
commit: at most one act per match in a group, each match's acts in the order they came):
decided on the match's state in memory (this process's snapshot), then written with no row
lock (`moves.submit_action`, `autoplay.advance`). The fence is the log's unique
`(match, seq)`: the row is written at the in-memory seq + 1, in the transaction that stores
the new state, so if any other writer (another process, a Celery worker, a room change)
wrote that seq first, the INSERT loses, that act's transaction rolls back, and the writer
reloads the match and decides the act again on it. Two writers can therefore never both
commit a seq; a single writer never loses. Which process writes a match is its lease
(lease.py), on setups whose channel layer spans processes; other processes forward to it.

The queue's task ends when it is empty, so nothing here outlives the acts it was given: no
registry to clear between event loops or tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer

from gamekit import GameError
from matches import lease
from matches.autoplay import advance
from matches.dbcall import db_call
from matches.errors import MatchError
from matches.groupcommit import GroupCommit
from matches.latency import Link
from matches.moves import Applied, submit_action


def _apply(match_id: Any, act: Callable[[], Any]) -> Any:
    return act()


# Every act this process writes, whatever its match, goes through one group commit
# (groupcommit.py): the acts waiting while the database thread is busy are written in one
# transaction, one savepoint each (a lost fence rolls back only its own act), at most one
# per match per group, each match's in the order they came. The notices go out after the
# commit, before any act's answer. Its writer task ends when nothing waits.
_writer = GroupCommit(_apply)


async def _enqueue(match_id: Any, act: Callable[[], Any]) -> Any:
    return await _writer.submit(match_id, act)


async def submit_act(
    match_id: Any,
    held: Iterable[int],
    action: Mapping[str, Any],
    *,
    seat: int | None = None,
    action_id: str | None = None,
    expected_seq: int | None = None,
    arrived_ms: float | None = None,
    link: Link | None = None,
) -> Applied:
    """A person's act: into the match's queue here if this process writes the match, else
    forwarded to the process that does. While the layer is down (or the owner does not
    answer within FORWARD_WAIT_S) it is applied here, through the fence."""
    act = {
        "held": list(held), "action": action, "seat": seat, "action_id": action_id,
        "expected_seq": expected_seq, "arrived_ms": arrived_ms,
        "link": None if link is None else list(link),
    }  # fmt: skip
    holder = await _route(match_id)
    if holder is not None:
        try:
            return await _forward(holder, match_id, act)
        except (MatchError, GameError):
            raise  # the owner refused it
        except Exception:  # the layer is down, or the owner silent: here, through the fence
            _forget_holder(match_id)
    return await _enqueue(match_id, lambda: _apply_forwarded(match_id, act))


def _apply_forwarded(match_id: Any, act: dict[str, Any]) -> Applied:
    link = act.get("link")
    return submit_action(
        match_id, act["held"], act["action"], seat=act["seat"], action_id=act["action_id"],
        expected_seq=act["expected_seq"], arrived_ms=act["arrived_ms"],
        link=None if link is None else Link(*link),
    )  # fmt: skip


async def submit_due(match_id: Any, expected_seq: int) -> int | None:
    """The server's move due at `expected_seq` (the match's timer fired), through the queue
    (the driver asks `writes_here` first: another owner's own timer plays its matches)."""
    return await _enqueue(match_id, lambda: advance(match_id, expected_seq))


async def writes_here(match_id: Any) -> bool:
    """Whether this process writes the match (its lease taken, renewed or taken over)."""
    return await _route(match_id) is None


# --- which process writes a match: the lease, and forwarding to it ------------------------

# How long a forwarded act waits for the owner's answer before it is applied here instead
# (through the fence: whichever writes first wins, the other finds the act's id logged).
FORWARD_WAIT_S = 2.0
# At least this long another process's lease is believed before it is read again.
HOLDER_TRUST_S = 1.0
# A lease this process holds is renewed, all in one statement, every third of its length
# while its match has had an act or a timer here within IDLE_S; an idle match's lapses.
IDLE_S = 12.0


@dataclass
class _Process:
    """This process as a writer, on one event loop: its channel (named in its leases), the
    reader of that channel, who holds which match as far as it knows, forwarded acts waiting
    for their answer."""

    channel: str | None = None
    reader: asyncio.Task | None = None
    holders: dict[str, tuple[str, float]] = field(default_factory=dict)  # -> (channel, until)
    answers: dict[str, asyncio.Future] = field(default_factory=dict)
    answering: set[asyncio.Task] = field(default_factory=set)
    active: dict[str, float] = field(default_factory=dict)  # a match -> its last act here
    renewer: asyncio.Task | None = None


_processes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Process] = (
    weakref.WeakKeyDictionary()
)


def _process() -> _Process:
    return _processes.setdefault(asyncio.get_running_loop(), _Process())


def _shared_layer() -> Any:
    """The channel layer if it spans processes (Redis), else None: with the in-memory layer
    there is one process, which writes every match without a lease."""
    layer = get_channel_layer()
    return None if layer is None or isinstance(layer, InMemoryChannelLayer) else layer


async def _route(match_id: Any) -> str | None:
    """None if this process writes the match (its lease taken or renewed), else the channel
    of the process that does."""
    layer = _shared_layer()
    if layer is None:
        return None
    proc, loop = _process(), asyncio.get_running_loop()
    key = str(match_id)
    known = proc.holders.get(key)
    if known is not None and known[1] > loop.time():
        if known[0] == proc.channel:
            proc.active[key] = loop.time()
            return None
        return known[0]
    if proc.channel is None:
        proc.channel = await layer.new_channel()
    asked = loop.time()
    holder, left_s = await db_call(lease.take)(match_id, proc.channel)
    mine = holder == proc.channel
    # Ours: renewed on this process's beat (_renew) while the match is active here. Another's:
    # believed until it expires (then taken over if its holder has not renewed it).
    trust = _trusted_s() if mine else max(HOLDER_TRUST_S, left_s)
    proc.holders[key] = (holder, asked + trust)
    if mine:
        proc.active[key] = loop.time()
        _listen(proc, layer)
        _keep_renewing(proc)
    return None if mine else holder


def _trusted_s() -> float:
    """How long this process trusts its own lease after taking or renewing it: two thirds of
    its length, so it is renewed (or re-taken) before any other process may take it."""
    return lease.length_s() * 2 / 3


def _keep_renewing(proc: _Process) -> None:
    if proc.renewer is None or proc.renewer.done():
        proc.renewer = asyncio.get_running_loop().create_task(_renew(proc))


async def _renew(proc: _Process) -> None:
    """Renew every lease this process holds on a match active here, in one statement, every
    third of a lease's length; stop when there is none (the next take starts it again)."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(lease.length_s() / 3)
        now = loop.time()
        for key, last in list(proc.active.items()):
            if last < now - IDLE_S:
                del proc.active[key]
        mine = [k for k in proc.active if proc.holders.get(k, ("", 0))[0] == proc.channel]
        if not mine:
            proc.renewer = None
            return
        try:
            kept = await db_call(lease.renew)(proc.channel, mine)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is down: the trust lapses, the next act re-takes
            continue
        for key in mine:
            if key in kept:
                proc.holders[key] = (proc.channel, now + _trusted_s())
            elif proc.holders.get(key, ("", 0))[0] == proc.channel:
                del proc.holders[key]  # taken over: the next act reads who holds it


def _forget_holder(match_id: Any) -> None:
    _process().holders.pop(str(match_id), None)


def _listen(proc: _Process, layer: Any) -> None:
    if proc.reader is None or proc.reader.done():
        proc.reader = asyncio.get_running_loop().create_task(_read(proc, layer))


async def _read(proc: _Process, layer: Any) -> None:
    """This process's writer channel: acts forwarded to it, answers to acts it forwarded."""
    while True:
        try:
            message = await layer.receive(proc.channel)
        except asyncio.CancelledError:
            raise
        except Exception:  # the layer is down: acts are applied where they arrive meanwhile
            await asyncio.sleep(0.5)
            continue
        if message.get("type") == "owner.act":
            task = asyncio.get_running_loop().create_task(_answer(layer, message))
            proc.answering.add(task)
            task.add_done_callback(proc.answering.discard)
        elif message.get("type") == "owner.answer":
            waiting = proc.answers.pop(message.get("id"), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)


async def _forward(holder: str, match_id: Any, act: dict[str, Any]) -> Applied:
    layer, proc = _shared_layer(), _process()
    if proc.channel is None:
        proc.channel = await layer.new_channel()
    _listen(proc, layer)
    ref = secrets.token_hex(8)
    waiting = asyncio.get_running_loop().create_future()
    proc.answers[ref] = waiting
    try:
        message = {"type": "owner.act", "id": ref, "reply": proc.channel}
        await layer.send(holder, {**message, "match": str(match_id), "act": act})
        answer = await asyncio.wait_for(waiting, FORWARD_WAIT_S)
    finally:
        proc.answers.pop(ref, None)
    holds_s = answer.get("holds_s")
    if isinstance(holds_s, (int, float)) and holds_s > 0:
        # The owner trusts its lease this much longer: so does this process (no read).
        key, until = str(match_id), asyncio.get_running_loop().time() + holds_s
        if proc.holders.get(key, ("", 0))[1] < until:
            proc.holders[key] = (holder, until)
    if "refused" in answer:
        raise _refusal(answer["refused"])
    if "failed" in answer:
        raise MatchError("unavailable")
    return Applied(answer["seq"], answer["duplicate"])


async def _answer(layer: Any, message: dict[str, Any]) -> None:
    """An act another process forwarded: applied in this match's queue, answered."""
    match_id, act = message["match"], message["act"]
    answer: dict[str, Any] = {"type": "owner.answer", "id": message["id"]}
    proc, now = _process(), asyncio.get_running_loop().time()
    holder, trusted_until = proc.holders.get(str(match_id), ("", 0.0))
    if holder == proc.channel:
        proc.active[str(match_id)] = now  # keep renewing it
        if trusted_until > now:
            answer["holds_s"] = trusted_until - now  # the forwarder believes it as long
    try:
        applied = await _enqueue(match_id, lambda: _apply_forwarded(match_id, act))
        answer.update(seq=applied.seq, duplicate=applied.duplicate)
    except (MatchError, GameError) as exc:
        answer["refused"] = {
            "code": exc.code, "game": isinstance(exc, GameError),
            "reason": getattr(exc, "reason", None),
        }  # fmt: skip
    except Exception as exc:
        answer["failed"] = type(exc).__name__
    with contextlib.suppress(Exception):
        await layer.send(message["reply"], answer)


def _refusal(refused: dict[str, Any]) -> Exception:
    """The owner's refusal, rebuilt here (the socket sends it in its own language)."""
    if not refused.get("game"):
        return MatchError(refused["code"])
    cls = _game_errors().get(refused["code"], GameError)
    exc = cls.__new__(cls)
    Exception.__init__(exc, refused["code"])
    exc.code = refused["code"]
    if refused.get("reason") is not None:
        exc.reason = refused["reason"]
    return exc


def _game_errors() -> dict[str, type[GameError]]:
    found: dict[str, type[GameError]] = {}
    todo = [GameError]
    while todo:
        cls = todo.pop()
        found.setdefault(cls.code, cls)
        todo.extend(cls.__subclasses__())
    return found
