"""Every sign-in is recorded as a DeviceSession (for the account page's list and "sign out
everywhere"), every sign-out forgets its row. Django's login() has already rotated the
session key (no fixation) when user_logged_in is sent."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from players.models import DeviceSession

_BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
             ("Chromium/", "Chromium"), ("Safari/", "Safari"))  # fmt: skip
_SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iOS"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip


def device_family(user_agent: str) -> str:
    """A coarse family such as "Firefox · Windows": the agent string itself is not kept."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    return " · ".join(part for part in (browser, system) if part)


@receiver(user_logged_in)
def remember_session(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    if not session.session_key:
        session.save()
    DeviceSession.objects.update_or_create(
        session_key=session.session_key,
        defaults={
            "user": user,
            "device": device_family(request.META.get("HTTP_USER_AGENT", ""))[:40],
            "method": getattr(request, "players_method", "password"),
        },
    )


@receiver(user_logged_out)
def forget_session(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        DeviceSession.objects.filter(session_key=session.session_key).delete()
