from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from functools import partial

        from django.core import checks

        from gamekit.checks import check_games
        from matches.errors import MESSAGES

        # gamekit's checks of every game, knowing the codes this platform puts into words.
        checks.register(partial(check_games, known_codes=MESSAGES), "gamekit")
