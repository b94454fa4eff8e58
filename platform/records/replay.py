"""A finished match's record: its log replayed through the engine, every state shown through
`Game.record_view`, in one JSON document (schema: docs/records.md). Never a second copy of
the rules: the states are what `Game.apply` reaches from the seed (`matches.log.replay_steps`).

The document holds no seat token, invite code or room id, and of the people only this: seats
are colours, human or CPU (and its level), with a signed-in player's handle.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings as django_settings
from django.utils import translation

import gamekit
from gamekit.events import PRIVATE
from matches.log import replay_steps
from matches.models import Match
from matches.text import describe_room_events

SCHEMA = "hyakunin-record/1"
# Room lines a record shows as steps (the state does not change, except `out`).
ROOM_STEPS = ("start", "out", "resign", "leave", "refused")


class NotReplayable(Exception):
    """The log cannot be replayed by today's engine (a match stored by an older version)."""


def revealed(stored: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The stored events with nothing hidden (the match is over), as JSON has them."""
    shown = [dict(e["event"]) if e.get("type") == PRIVATE else dict(e) for e in stored]
    return json.loads(json.dumps(shown))


def _texts(game: gamekit.Game, events: list[dict[str, Any]], room: int) -> dict[str, list[str]]:
    """The events in words, in every language of the site (the document is built once): the
    first `room` are the room's own (the start, a resignation: matches.text, as the live log
    says them), the rest the game's."""
    texts = {}
    for code, _name in django_settings.LANGUAGES:
        with translation.override(code):
            texts[code] = describe_room_events(events[:room]) + [
                str(line) for line in game.describe_events(events[room:])
            ]
    return texts


def _room_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """A room line as the record shows it: its type and the game's own fields, never a token."""
    kept = ("type", "code", "reason")
    return {key: action[key] for key in kept if key in action}


def build(match: Match) -> dict[str, Any]:
    """The record document of a finished match. Raises NotReplayable if the log does not
    replay (an action today's engine refuses, a start line it cannot read)."""
    game = gamekit.registry.get(match.game)
    seats = [
        {
            "index": s.index,
            "colour": s.colour,
            "handle": s.handle,  # a signed-in player's; None: a guest or a CPU
            "kind": s.kind,
            "cpu_level": s.cpu_level,
        }
        for s in match.seats.select_related("user").order_by("index")
    ]
    steps: list[dict[str, Any]] = []
    try:
        for replayed in replay_steps(match):  # the match layer's one replay of a log
            row, kind, state = replayed.row, replayed.kind, replayed.state
            step: dict[str, Any] = {"seq": row.seq, "seat": row.seat, "actor": row.actor}
            room = 0  # how many of the step's events are the room's own
            if kind == "start":
                events: list[dict[str, Any]] = revealed(row.events)
                room = len(events)
            elif kind == "game":
                events = revealed(replayed.events)
                if events != revealed(row.events):
                    raise NotReplayable(f"the events of line {row.seq} differ from the log's")
            elif kind == "out":  # the room's line, then what the game made of it
                events = revealed(row.events)[:1] + revealed(replayed.events)
                room = 1
            elif kind in ROOM_STEPS and state is not None:
                events = revealed(row.events)
                room = len(events)
            else:
                continue  # join, invite, rematch: nothing to look back on
            step["kind"] = kind
            step["action"] = dict(row.action) if kind == "game" else _room_action(row.action)
            step["events"] = events
            step["text"] = _texts(game, events, room)
            step["view"] = game.record_view(state)
            steps.append(step)
    except NotReplayable:
        raise
    except Exception as exc:  # an engine refusing an old log: say so, do not guess
        raise NotReplayable(f"{type(exc).__name__}: {exc}") from exc
    return {
        "schema": SCHEMA,
        "game": match.game,
        "mode": match.mode,
        "settings": match.settings,
        # Shown only now the match is over: with the settings and the actions it replays the
        # match through the game's engine anywhere (a Bakudan game number shows it anyway).
        "seed": match.seed,
        "seats": seats,
        "outcome": match.outcome,
        "pace_ms": game.cpu_delay_ms,
        "steps": steps,
    }
