from celery import shared_task

from telemetry.models import TelemetryEvent


# Far below the Redis visibility timeout (1 h): a killed run is never redelivered while the
# first still works. Each batch commits on its own, so a cut-off run loses nothing.
@shared_task(name="telemetry.purge_expired", soft_time_limit=15 * 60, time_limit=16 * 60)
def purge_expired() -> int:
    """Delete telemetry events older than 30 days (scheduled daily by CELERY_BEAT_SCHEDULE)."""
    return TelemetryEvent.objects.purge_expired()
