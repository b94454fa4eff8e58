from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BakudanConfig(AppConfig):
    name = "games.bakudan"
    label = "bakudan"
    verbose_name = _("Bakudan Mekuri")
