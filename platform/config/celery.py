"""The Celery app: a filesystem broker by default (no server); REDIS_URL switches to Redis."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("hyakunin")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.worker_init.connect
@signals.beat_init.connect
def _require_secret_key(**kwargs) -> None:
    from config.startup import require_secret_key

    require_secret_key()
