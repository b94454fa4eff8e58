"""The game-plugin contract: every game on the site is a `Game` in the registry.

The platform reaches a game only through this package; see docs/architecture.md §2.
"""

from gamekit.base import (
    CpuLevel,
    Game,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    LeavePolicy,
    Mode,
    NotYourTurnError,
    Outcome,
    SeatGroup,
    SeatSpec,
    Termination,
)
from gamekit.colours import SEAT_COLOURS, colour_label
from gamekit.events import Private
from gamekit.registry import AlreadyRegistered, NotRegistered, register, registry
from gamekit.timed import STAMP, TimedGame, timed

__all__ = [
    "SEAT_COLOURS",
    "STAMP",
    "AlreadyRegistered",
    "CpuLevel",
    "Game",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "LeavePolicy",
    "Mode",
    "NotRegistered",
    "NotYourTurnError",
    "Outcome",
    "Private",
    "SeatGroup",
    "SeatSpec",
    "Termination",
    "TimedGame",
    "colour_label",
    "register",
    "registry",
    "timed",
]
