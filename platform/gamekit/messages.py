"""The readable texts of gamekit's own GameError codes (a pure engine carries no
translation; a game's own codes bring theirs: `GameError.message` or `Game.error_messages`).
Django's, so never imported by an engine."""

from django.utils.translation import gettext_lazy as _

GAME_MESSAGES = {
    "game_error": _("The game refused that action."),
    "invalid_action": _("That action is not understood by this game."),
    "illegal_action": _("The rules do not allow that now."),
    "not_your_turn": _("It is not your turn."),
    "game_over": _("The game is over."),
}
