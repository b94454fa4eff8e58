from celery import shared_task

from records import retention


# Far below the Redis visibility timeout (1 h), as telemetry.purge_expired; each batch
# commits on its own, so a run cut off loses nothing and the next goes on.
@shared_task(name="records.purge_expired", soft_time_limit=15 * 60, time_limit=16 * 60)
def purge_expired() -> dict[str, int]:
    """Delete finished matches past their retention and rooms that never started (daily,
    CELERY_BEAT_SCHEDULE)."""
    return retention.purge()
