from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = pgettext_lazy("admin app", "Players")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from players import sessions  # noqa: F401  (connects the sign-in / sign-out receivers)
