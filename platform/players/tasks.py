from celery import shared_task
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.utils import timezone

from players.models import DeviceSession, SignInCode


@shared_task(name="players.purge_expired", soft_time_limit=15 * 60, time_limit=16 * 60)
def purge_expired() -> dict[str, int]:
    """Daily (CELERY_BEAT_SCHEDULE): expired sessions (Django keeps them until asked), the
    session rows of sessions that are gone, and one-time codes that expired or were used.
    Rows per table."""
    now = timezone.now()
    sessions, _ = Session.objects.filter(expire_date__lte=now).delete()
    live = Session.objects.filter(session_key__in=DeviceSession.objects.values("session_key"))
    devices, _ = DeviceSession.objects.exclude(session_key__in=live.values("session_key")).delete()
    codes, _ = SignInCode.objects.filter(Q(expires_at__lte=now) | ~Q(used_at=None)).delete()
    return {"sessions": sessions, "device_sessions": devices, "signin_codes": codes}
