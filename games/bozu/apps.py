from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BozuConfig(AppConfig):
    name = "games.bozu"
    label = "bozu"
    verbose_name = _("Bozu Mekuri")
