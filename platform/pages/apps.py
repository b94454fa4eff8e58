from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"

    def ready(self) -> None:
        from config import startup  # noqa: F401  (registers the SECRET_KEY system check)
