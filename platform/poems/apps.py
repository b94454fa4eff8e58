from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PoemsConfig(AppConfig):
    name = "poems"
    verbose_name = _("Poem database")
