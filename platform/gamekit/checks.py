"""System checks for game plugins (`manage.py check`): a game the platform cannot serve
fails at start-up with a message naming what is missing, not in the middle of a match.
The platform registers them (matches/apps.py), saying which error codes it puts into words
besides gamekit's own (a game may reuse one, e.g. karuta's "stale")."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.core import checks

import gamekit
from gamekit import Game, GameError, LeavePolicy, Mode
from gamekit.messages import GAME_MESSAGES

# Hooks every engine must define: the platform calls each of them in every match.
REQUIRED_HOOKS = ("new_state", "to_act", "legal_actions", "apply", "view", "result")


def _defines(game: Game, hook: str) -> bool:
    return getattr(type(game), hook) is not getattr(Game, hook)


def _error_classes(game: Game) -> list[type[GameError]]:
    """GameError subclasses defined in the game's own package."""
    root = game.app_module
    found, todo = [], list(GameError.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__ == root or cls.__module__.startswith(f"{root}."):
            found.append(cls)
    return found


def check_game(game: Game, known_codes: Collection[str] = ()) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []

    def fail(number: int, msg: str, hint: str | None = None) -> None:
        errors.append(
            checks.Error(
                f"game {game.slug!r}: {msg}", hint=hint, obj=type(game), id=f"gamekit.E{number:03d}"
            )
        )

    for hook in REQUIRED_HOOKS:
        if not _defines(game, hook):
            fail(1, f"the game does not define {hook}().", "Every engine hook is required.")
    if not 1 <= game.min_players <= game.max_players:
        fail(2, "min_players and max_players are not 1 ≤ min ≤ max.")
    colours = len(gamekit.SEAT_COLOURS)
    if game.max_players > colours:
        fail(3, f"max_players is {game.max_players} but there are only {colours} seat colours.")
    known = {m.value for m in Mode}
    for mode in game.modes:
        if str(mode) not in known:
            fail(4, f"mode {mode!r} is not supported by the platform.", f"Use {sorted(known)}.")
    # CPU seats: vs CPU, and friend rooms whose empty seats the CPU may take.
    if {Mode.CPU, Mode.FRIEND} & set(game.modes):
        if not game.cpu_levels:
            fail(5, "the game offers CPU seats but has no cpu_levels.")
        if not _defines(game, "cpu_policy"):
            fail(6, "CPU seats are offered but cpu_policy(view, seat, level, rng) is missing.")
    if game.on_leave == LeavePolicy.OUT and not _defines(game, "remove_seat"):
        fail(7, "on_leave is OUT but the game does not define remove_seat(state, seat).")
    for cls in _error_classes(game):
        known_code = (
            cls.code in GAME_MESSAGES or cls.code in known_codes or cls.code in game.error_messages
        )
        if not known_code and not getattr(cls, "message", None):
            fail(
                8,
                f"error code {cls.code!r} ({cls.__qualname__}) has no message.",
                "Give the class a `message` or the game an `error_messages` entry.",
            )
    return errors


def check_games(
    app_configs: Any = None, *, known_codes: Collection[str] = (), **kwargs: Any
) -> list[checks.CheckMessage]:
    return [error for game in gamekit.registry.all() for error in check_game(game, known_codes)]
