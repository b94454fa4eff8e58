"""Typed errors of the match server. Every one has a code and a readable message."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

# Readable texts for every error code a client may receive (games' codes included).
MESSAGES = {
    "bad_json": _("The message is not valid JSON."),
    "bad_message": _("The message is missing a field or has a field of the wrong kind."),
    "binary_not_supported": _("Only text messages are accepted."),
    "frame_too_large": _("The message is too long."),
    "rate_limited": _("Too many messages: please slow down."),
    "unknown_type": _("Unknown message type."),
    "unsupported_version": _("This version of the protocol is not supported: reload the page."),
    "hello_first": _("Say hello first."),
    "not_found": _("This match does not exist."),
    "bad_token": _("This seat token is not valid for this match."),
    "spectator": _("Spectators cannot act."),
    "not_your_seat": _("You do not hold that seat."),
    "choose_seat": _("Say which of your seats acts."),
    "stale": _("The game has moved on: here is the current table."),
    "not_started": _("The match has not started yet."),
    "finished": _("The match is over."),
    "room_full": _("Every seat is taken: you can watch."),
    "bad_invite": _("This invitation is no longer valid."),
    "not_owner": _("Only the player who made the room can do that."),
    "not_waiting": _("The match has already started."),
    "not_allowed": _("That is not possible in this match."),
    "duplicate_action_id": _("That action id was already used for another move."),
    "no_handoff": _("That seat is not the one this device is being passed to."),
    "server_error": _("Something went wrong on the server; the match is safe."),
    # gamekit.GameError codes
    "game_error": _("The game refused that action."),
    "invalid_action": _("That action is not understood by this game."),
    "illegal_action": _("The rules do not allow that now."),
    "not_your_turn": _("It is not your turn."),
    "game_over": _("The game is over."),
}


def message_for(code: str) -> str:
    return str(MESSAGES.get(code, MESSAGES["game_error"]))


def message_of(exc: Exception, game: Any = None) -> str:
    """The readable text of a refusal: a game's own error class may carry its message, or
    its game may (`Game.error_messages`); the platform knows the rest."""
    code = getattr(exc, "code", "server_error")
    own = None if isinstance(exc, MatchError) else getattr(type(exc), "message", None)
    if not own and game is not None:
        own = game.error_messages.get(code)
    return str(own) if own else message_for(code)


class MatchError(Exception):
    """A refused request. Nothing changed."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(code)
        self.code = code
        self.detail = detail  # for logs and tests, never shown to people

    @property
    def message(self) -> str:
        return message_for(self.code)
