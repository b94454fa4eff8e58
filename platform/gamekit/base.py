"""The contract between the platform and a game.

A game is a subclass of `Game` defined in a `game.py` module of a Django app
under `games/`. The engine behind it is pure: no Django, no I/O, no clock and no
global random. Everything random comes from the seed handed to `new_state`, so
the same (seed, settings, actions) always reaches the same state, which is what
replays, game numbers and crash recovery rest on.

States are opaque to the platform. It stores them through `dump_state` /
`load_state` (JSON), and it shows them to people only through `view`.

Events (what `apply` returns) are JSON-able dicts with a "type", stored in the match log
and sent to everyone at the table — unless wrapped in `gamekit.events.Private`, which shows
the event only to the seats it names and its public counterpart (or a placeholder) to the
rest. Frames are built per viewer seat: a hot-seat device is one viewer at a time, and a
game with `private_hands` makes the device pass through a blind handoff between players.

The CPU is a policy over a seat's view: the platform hands `cpu_policy` the same `view`
a person in that seat would get, and nothing else.

Actions reach `apply` bounded by the platform (depth, size, finite 53-bit numbers, clean
strings) and cleaned by `clean_action`: a game that declares `action_schema` (the keys
each action type keeps) gets only those keys, and only those are logged. A finished
game's result reaches the platform typed, as an `Outcome` (`Game.outcome`; by default read
from `result`'s "places" and "scores").

A finished match becomes a record (platform/records): its log replayed through `apply`, each
state shown through `record_view` (default: the spectator's `view`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

State = Any
Action = Mapping[str, Any]
Event = dict[str, Any]


class Mode(StrEnum):
    CPU = "cpu"
    HOTSEAT = "hotseat"
    SOLO = "solo"
    FRIEND = "friend"


@dataclass(frozen=True)
class CpuLevel:
    key: str
    label: str  # usually a lazy translation
    description: str = ""


@dataclass(frozen=True)
class SeatSpec:
    """What a game is told about a seat when a match starts."""

    index: int
    colour: str
    is_cpu: bool = False
    cpu_level: str | None = None


@dataclass(frozen=True)
class SeatGroup:
    """Seats that play together (a team), as a friend room offers them to a joiner."""

    label: str  # usually a lazy translation
    seats: tuple[int, ...]


class Termination(StrEnum):
    """Why a match ended."""

    FINISHED = "finished"  # the game's own end (its rules)
    RESIGNED = "resigned"  # a player of two resigned
    ABANDONED = "abandoned"  # two seats and one left: nobody left to play


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended, typed (in the manner of python-chess's `Outcome`).

    `places[seat]`: 1 for first, ties share a place (empty when a game ranks nobody);
    `scores[seat]`: the game's score per seat, if it keeps one; `termination`: why it ended;
    `seat`: the seat that ended it (the resigner), if any.
    """

    places: tuple[int, ...] = ()
    scores: tuple[float, ...] | None = None
    termination: Termination = Termination.FINISHED
    seat: int | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": str(self.termination),
            "places": list(self.places),
            "scores": None if self.scores is None else list(self.scores),
        }
        if self.seat is not None:
            data["seat"] = self.seat
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        scores = data.get("scores")
        return cls(
            places=tuple(data.get("places") or ()),
            scores=None if scores is None else tuple(scores),
            termination=Termination(data.get("type", Termination.FINISHED)),
            seat=data.get("seat"),
        )

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> Outcome:
        """From a `Game.result` dict: its "places" and "scores" when it gives them."""
        places = result.get("places")
        scores = result.get("scores")
        numeric = isinstance(scores, (list, tuple)) and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in scores
        )
        return cls(
            places=tuple(places) if isinstance(places, (list, tuple)) else (),
            scores=tuple(scores) if numeric else None,
        )


class LeavePolicy(StrEnum):
    """What happens to a seat whose player leaves, resigns or stays away past the grace."""

    CPU = "cpu"  # the CPU plays the seat for the rest of the match (two seats: the match ends)
    OUT = "out"  # the player is out of the game (`Game.remove_seat`); the others play on


class GameError(ValueError):
    """Base of every error an engine raises for a refused action. Nothing changed.

    A game's own subclass sets `code` and a readable text: its `message` (a lazy
    translation) or an entry in its game's `error_messages`; the system checks require one
    (gamekit.checks).
    """

    code: ClassVar[str] = "game_error"
    message: ClassVar[Any] = None
    # A refused action comes back with the current view, so the client redraws at once.
    with_view: ClassVar[bool] = True
    # The platform records the refusal in the match log (a room line with the seat, the code
    # and the error's `reason`, if it has one): for refusals that matter afterwards, such
    # as an impossible touch. Nothing personal goes in it.
    logged: ClassVar[bool] = False
    # A logged refusal the other seats need not see at once (karuta's late pass: the server
    # passed the seat already): its line is written without a frame to every socket, and
    # reaches the others with their next frame.
    quiet: ClassVar[bool] = False


class InvalidActionError(GameError):
    """The action is malformed: unknown type, missing or ill-typed fields."""

    code = "invalid_action"


class IllegalActionError(GameError):
    """The action is well formed but the rules forbid it now."""

    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class GameOverError(IllegalActionError):
    code = "game_over"


class Game:
    """One game on the site. Subclass, fill in the class attributes, implement the engine hooks.

    Register the subclass with `@gamekit.register` in the app's `game.py`.
    """

    slug: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    modes: ClassVar[tuple[Mode, ...]] = (Mode.CPU,)
    cpu_levels: ClassVar[tuple[CpuLevel, ...]] = ()
    settings_form: ClassVar[type | None] = None  # a django.forms.Form subclass
    # A timed game (karuta) subclasses `gamekit.TimedGame` instead: several seats act at once
    # and actions carry times; `gamekit.timed(game)` is the one test of it (gamekit/timed.py).
    # Hidden hands on a shared device: between two players' turns a hot-seat device gets a
    # blind frame ("pass the device to Yellow") until the next player asks to see their view.
    private_hands: ClassVar[bool] = False
    # What happens to the seat of a player who leaves, resigns or is away past the grace.
    on_leave: ClassVar[LeavePolicy] = LeavePolicy.CPU
    # Bits of the random seed the platform draws when `seed_for` gives none (a game whose
    # deal is written as a short game number keeps it small).
    seed_bits: ClassVar[int] = 62
    # How long the platform waits before playing a CPU move, so people can follow.
    cpu_delay_ms: ClassVar[int] = 700
    # Sort key on the home page.
    order: ClassVar[int] = 100
    # Readable texts for the codes of the game's own GameError subclasses, for engines that
    # cannot carry a translated `message` themselves (a pure engine imports no Django).
    error_messages: ClassVar[Mapping[str, Any]] = {}
    # Telemetry (docs/requirements.md §6): the rule options a page may report with game start and
    # end, each with its allowed values, e.g. {"monk_rule": ("on", "off")}. Buckets only,
    # never free values; the player count is always allowed (telemetry_settings_schema).
    telemetry_settings: ClassVar[Mapping[str, Sequence[str]]] = {}
    # The keys each action type may carry besides "type", e.g. {"draw": (), "take": ("card",
    # "ms")}: only these reach `apply`, the log and the other processes; anything else a
    # client sends is dropped, and an action type not listed is refused (invalid_action).
    # None (the default): every key is kept. Either way the platform has already bounded the
    # action (depth, size, finite 53-bit numbers, clean strings: matches/protocol.py).
    action_schema: ClassVar[Mapping[str, Sequence[str]] | None] = None

    # --- settings -----------------------------------------------------------

    def settings_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
        """JSON-able settings for `new_state` from the settings form's cleaned data."""
        return dict(cleaned_data)

    def player_count(self, settings: Mapping[str, Any]) -> int:
        """How many seats a match with these settings has."""
        return int(settings.get("players", self.min_players))

    def seat_levels(self, settings: Mapping[str, Any]) -> Sequence[str | None] | None:
        """A CPU level per seat chosen in the settings (None, or None at a seat: the match's
        level), for games whose menu sets each CPU seat apart."""
        return None

    def seat_groups(self, settings: Mapping[str, Any]) -> Sequence[SeatGroup]:
        """Groups of seats a person joining a friend room chooses among (teams), in order;
        empty: a joiner takes the next free seat."""
        return ()

    def swap_group_seats(
        self, settings: Mapping[str, Any], first: int, second: int
    ) -> dict[str, Any]:
        """The settings with two seats of different groups exchanged (each seat then plays
        in the other's group, the groups' sizes unchanged): how a friend room's creator
        arranges the teams before the start. GameError if these settings have no groups or
        the seats are not in different ones."""
        raise GameError("this game has no seat groups")

    def seed_for(self, settings: Mapping[str, Any]) -> int | None:
        """The seed these settings fix (a game number), or None for a fresh random deal."""
        return None

    def rematch_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The settings of the next match when the players ask to play again."""
        return dict(settings)

    def telemetry_settings_schema(self) -> dict[str, tuple[str, ...]]:
        """Settings keys telemetry accepts for this game, each with its allowed buckets."""
        players = tuple(str(n) for n in range(self.min_players, self.max_players + 1))
        declared = {key: tuple(values) for key, values in self.telemetry_settings.items()}
        return {"players": players, **declared}

    def telemetry_settings_buckets(self, settings: Mapping[str, Any]) -> dict[str, str]:
        """These settings as telemetry buckets: declared keys with allowed values only.

        Booleans become "on"/"off"; anything undeclared or out of range is dropped. A
        game with numeric options (a card count, a time) overrides this to bucket them.
        """
        buckets = {}
        for key, allowed in self.telemetry_settings_schema().items():
            value = settings.get(key)
            text = ("on" if value else "off") if isinstance(value, bool) else str(value)
            if text in allowed:
                buckets[key] = text
        return buckets

    # --- actions --------------------------------------------------------------

    def clean_action(self, action: Action) -> dict[str, Any]:
        """The action as the game keeps it (the platform calls this before `apply`): with an
        `action_schema`, its "type" and the declared keys only. Override for finer checks."""
        if self.action_schema is None:
            return dict(action)
        kind = action.get("type")
        keys = self.action_schema.get(kind) if isinstance(kind, str) else None
        if keys is None:
            raise InvalidActionError("unknown action type")
        return {"type": kind, **{k: action[k] for k in keys if k in action}}

    # --- the engine -----------------------------------------------------------

    def new_state(self, settings: Mapping[str, Any], seats: Sequence[SeatSpec], seed: int) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> tuple[int, ...]:
        """Seats whose action the game is waiting for now (empty once it is over)."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Return the new state and the events the action caused (dicts, or
        `gamekit.events.Private` for what only some seats may know).

        Raise a `GameError` subclass (and change nothing) for a refused action.
        """
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (or a spectator, None) may see: the only way state leaves the server."""
        raise NotImplementedError

    def result(self, state: State) -> dict[str, Any] | None:
        """None while the game runs; places and scores once it is over (the game's own
        shape, shown in its view). The platform reads `outcome`."""
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs; the typed `Outcome` once it is over. The default reads
        `result`'s "places" and "scores"; a game may override it."""
        result = self.result(state)
        return None if result is None else Outcome.from_result(result)

    def cpu_policy(
        self, view: Mapping[str, Any], seat: int, level: str, rng: random.Random
    ) -> dict[str, Any]:
        """The CPU's action for `seat`, chosen from `view(state, seat)` alone: the platform
        passes nothing else, so a CPU knows what a person in that seat knows (its notes
        included, when the game keeps them in the view). `rng` comes from the match seed."""
        raise NotImplementedError

    def remove_seat(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """`on_leave = OUT` games: the player in `seat` is out of the game from now on."""
        raise NotImplementedError

    # --- records (a finished match looked back on) ----------------------------------

    def record_view(self, state: State) -> dict[str, Any]:
        """What a finished match's record shows of `state`, one of the states its log passed
        through. The record exists only once the match is over, so nothing is hidden any more:
        a game with hidden information adds it here (every hand, the deck order). The default
        is the spectator's `view`. Never the seed, and nothing about the people."""
        return self.view(state, None)

    # --- storage --------------------------------------------------------------

    def dump_state(self, state: State) -> Any:
        """A JSON-able snapshot of the state (the action log stays the truth)."""
        return state

    def load_state(self, data: Any) -> State:
        return data

    # --- presentation ---------------------------------------------------------

    def describe_events(self, events: Sequence[Event]) -> list[str]:
        """The events of one action as sentences in the active language (for the live log
        and screen readers). Events are already filtered for the viewer."""
        return []

    @property
    def app_module(self) -> str:
        """The Django app the game lives in (games.bozu for games/bozu/game.py)."""
        return type(self).__module__.rsplit(".", 1)[0]

    @property
    def url(self) -> str | None:
        """The game's own page, if its app has a urls.py with an "index" route."""
        from django.urls import NoReverseMatch, reverse

        try:
            return reverse(f"{self.slug}:index")
        except NoReverseMatch:
            return None

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"
