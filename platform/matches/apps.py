from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from django.core import checks

        from matches.checks import check_games

        checks.register(check_games, "gamekit")
