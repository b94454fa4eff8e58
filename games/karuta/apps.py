from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KarutaConfig(AppConfig):
    name = "games.karuta"
    label = "karuta"
    verbose_name = _("Hyakunin Isshu karuta")
