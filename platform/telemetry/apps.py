from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TelemetryConfig(AppConfig):
    name = "telemetry"
    verbose_name = _("Telemetry")
    default_auto_field = "django.db.models.BigAutoField"
