from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def records_retention() -> dict[str, int]:
    """The record retention figures the privacy page states (the settings that enforce them)."""
    return {
        "days": settings.RECORDS_RETENTION_DAYS,
        "keep_max": settings.RECORDS_KEEP_MAX_DAYS,
        "abandoned_hours": settings.RECORDS_ABANDONED_HOURS,
    }
