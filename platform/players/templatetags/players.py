from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def players_kept():
    """The figures the privacy page states about accounts, from the settings in force."""
    return {
        "session_days": settings.SESSION_COOKIE_AGE // 86400,
        "code_minutes": getattr(settings, "PLAYERS_SIGNIN_CODE_MINUTES", 5),
        "lockout_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        "failures": settings.AXES_FAILURE_LIMIT,
    }
