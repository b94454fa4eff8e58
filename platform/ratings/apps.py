from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The match layer announces finished matches; it never imports this app.
        from matches.signals import match_finished
        from ratings import receivers

        match_finished.connect(receivers.on_match_finished, dispatch_uid="ratings.apply")
