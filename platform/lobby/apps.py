from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from lobby import receivers  # noqa: F401  (connects match_finished)
