from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class GamekitConfig(AppConfig):
    name = "gamekit"
    verbose_name = "Game kit"

    def ready(self) -> None:
        # Import game.py of every installed app, the way admin finds admin.py.
        autodiscover_modules("game")
