"""The CPU's plans, for every game: what a CPU seat plays, computed once per state and
never inside a write's transaction.

A plan is the game's `cpu_policy` handed that seat's view and nothing else, with randomness
from the server-side seed and the log's seq (or a timed game's `cpu_key`: its plan does not
change when another seat moves). It depends only on the match, its seq, the state, the seat
and the level, so it is remembered per process under exactly that key. The state is part of
the key because plans are made ahead: a plan for the state after a move is filed under the
next seq before that move is committed, and another move (a person's touch first, a refusal's
log line) may take that seq instead. The move path plans before
its write's transaction (`prepare`: moves.plan_ahead, autoplay.advance); code inside the
transaction only looks plans up (`planned`: a timed game's CPU plays at its plan's time). A
plan is only a value: whether it is played is decided by the write at the expected seq (the
log's fence, moves.fenced), so a CPU move is applied at most once whoever planned it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from gamekit import Game, timed

KEEP = 2048  # plans remembered per process (a few per match in play)

_plans: OrderedDict[tuple[str, int, bytes, int, str], dict[str, Any]] = OrderedDict()
_lock = threading.Lock()


def rng(game: Game, match: Any, state: Any, index: int) -> random.Random:
    """The CPU's randomness for a seat: from the seed and the seq, or the game's `cpu_key`."""
    clocked = timed(game)
    key = clocked.cpu_key(state, index) if clocked is not None and state is not None else None
    return random.Random(f"{match.seed}:{match.seq if key is None else key}:{index}")


def _key(
    game: Game, match: Any, state: Any, index: int, level: str
) -> tuple[str, int, bytes, int, str]:
    dumped = json.dumps(game.dump_state(state), sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(dumped.encode(), digest_size=16).digest()
    return (str(match.pk), match.seq, digest, index, level)


def plan(game: Game, match: Any, state: Any, index: int, level: str) -> dict[str, Any]:
    """The CPU's next action for seat `index` of `state` (the state after `match.seq`)."""
    key = _key(game, match, state, index, level)
    with _lock:
        known = _plans.get(key)
        if known is not None:
            _plans.move_to_end(key)
            return copy.deepcopy(known)
    action = game.cpu_policy(game.view(state, index), index, level, rng(game, match, state, index))
    with _lock:
        _plans[key] = copy.deepcopy(action)
        while len(_plans) > KEEP:
            _plans.popitem(last=False)
    return action


def planned(game: Game, match: Any, state: Any, index: int, level: str) -> dict[str, Any] | None:
    """The plan made for seat `index` of `state` at `match.seq`, or None: a lookup, never a
    policy run (what code under the row lock calls)."""
    with _lock:
        known = _plans.get(_key(game, match, state, index, level))
    return None if known is None else copy.deepcopy(known)


def prepare(game: Game, match: Any, state: Any, seats: Iterable[Any], default_level: str) -> None:
    """Plan, now (outside any transaction), for the CPU seats to act in `state` at `match.seq`. (A
    person away past the grace is planned for when their move is picked: autoplay.advance.)"""
    if match.status != "playing" or not game.cpu_levels or state is None:
        return
    to_act = set(game.to_act(state))
    for seat in seats:
        if seat.is_cpu and seat.index in to_act:
            plan(game, match, state, seat.index, seat.cpu_level or default_level)


def forget() -> None:
    """Drop every remembered plan (tests that change a game's policy)."""
    with _lock:
        _plans.clear()
