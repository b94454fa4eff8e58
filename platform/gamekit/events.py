"""Who may see an event: typed visibility, in the manner of lichess's versioned events.

An engine's `apply` returns a list of events. A plain dict is public: everyone at the table
and every spectator sees it. A `Private` event is seen only by the seats in `only`; everyone
else gets its `public` counterpart ("Blue drew a card" for "Blue drew the 3 of nippers"), or a
bare placeholder when the game gives none. Either way every viewer's log keeps the same entries
with the same seq, so logs stay contiguous.

This module imports nothing from Django: pure engines may use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

PRIVATE = "private"  # the stored envelope's type; no game may use it for an event of its own
HIDDEN = {"type": "hidden"}  # what a viewer outside `only` gets when there is no public part


@dataclass(frozen=True)
class Private:
    """An event only the seats in `only` may see."""

    event: Mapping[str, Any]
    only: tuple[int, ...]
    public: Mapping[str, Any] | None = field(default=None)

    def __post_init__(self) -> None:
        if not isinstance(self.event.get("type"), str):
            raise ValueError("an event needs a string 'type'")
        object.__setattr__(self, "only", tuple(sorted({int(s) for s in self.only})))


def encode(events: Iterable[Mapping[str, Any] | Private]) -> list[dict[str, Any]]:
    """The JSON form the log stores: public events as they are, private ones in an envelope."""
    stored = []
    for event in events:
        if isinstance(event, Private):
            stored.append(
                {
                    "type": PRIVATE,
                    "only": list(event.only),
                    "event": dict(event.event),
                    "public": None if event.public is None else dict(event.public),
                }
            )
        elif event.get("type") == PRIVATE:
            raise ValueError(f"event type {PRIVATE!r} is reserved for gamekit.events.Private")
        else:
            stored.append(dict(event))
    return stored


def for_viewer(stored: Sequence[Mapping[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The stored events as `seat` (None: a spectator, or a device nobody has claimed) sees them."""
    shown = []
    for event in stored:
        if event.get("type") != PRIVATE:
            shown.append(dict(event))
        elif seat is not None and seat in event["only"]:
            shown.append(dict(event["event"]))
        else:
            shown.append(dict(event["public"] or HIDDEN))
    return shown
