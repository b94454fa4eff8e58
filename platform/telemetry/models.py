"""One row per telemetry event: buckets and a received-at time, nothing that identifies anyone."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

RETENTION = timedelta(days=30)
PURGE_BATCH = 5000


class TelemetryEventQuerySet(models.QuerySet):
    def expired(self, now: datetime | None = None) -> TelemetryEventQuerySet:
        """Events received more than 30 days before `now` (exactly 30 days old is kept)."""
        return self.filter(received_at__lt=(now or timezone.now()) - RETENTION)

    def purge_expired(self, now: datetime | None = None, batch_size: int = PURGE_BATCH) -> int:
        """Delete expired events in primary-key batches, each its own transaction.

        Short transactions keep the table writable while a big backlog goes. Safe to run
        twice at once: on PostgreSQL each run skips rows another run has locked; SQLite
        serialises writers. Deleting rows that are already gone is a no-op, so it is
        idempotent. Returns how many rows this call deleted.
        """
        now = now or timezone.now()
        skip_locked = connection.features.has_select_for_update_skip_locked
        deleted_total = 0
        while True:
            with transaction.atomic():
                batch = self.expired(now).order_by("pk")
                if skip_locked:
                    batch = batch.select_for_update(skip_locked=True)
                pks = list(batch.values_list("pk", flat=True)[:batch_size])
                if not pks:
                    return deleted_total
                deleted, _ = self.model.objects.filter(pk__in=pks).delete()
                deleted_total += deleted


class TelemetryEvent(models.Model):
    received_at = models.DateTimeField(_("received at"), default=timezone.now, db_index=True)
    # Random per page load, made in the page: links the events of one page view only.
    page_view = models.CharField(_("page view"), max_length=32)
    kind = models.CharField(_("kind"), max_length=20)
    game = models.CharField(_("game"), max_length=40, blank=True)
    mode = models.CharField(_("mode"), max_length=16, blank=True)
    cpu_level = models.CharField(_("CPU level"), max_length=40, blank=True)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    result = models.CharField(_("result"), max_length=16, blank=True)
    moves = models.CharField(_("moves"), max_length=16, blank=True)
    duration = models.CharField(_("duration"), max_length=16, blank=True)
    room_origin = models.CharField(_("room created from"), max_length=16, blank=True)
    outcome = models.CharField(_("outcome"), max_length=16, blank=True)
    reconnects = models.CharField(_("reconnects"), max_length=16, blank=True)
    render_speed = models.CharField(_("rendering speed"), max_length=16, blank=True)
    time_to_3d = models.CharField(_("time to 3D"), max_length=16, blank=True)
    abandon = models.CharField(_("left before 3D"), max_length=16, blank=True)
    connection = models.CharField(_("connection speed"), max_length=16, blank=True)
    cache = models.CharField(_("cache load"), max_length=16, blank=True)
    load_failure = models.CharField(_("load failure"), max_length=16, blank=True)
    device = models.CharField(_("device"), max_length=16)
    memory = models.CharField(_("memory"), max_length=16)
    cores = models.CharField(_("cores"), max_length=16)
    browser = models.CharField(_("browser"), max_length=16)
    os = models.CharField(_("OS"), max_length=16)

    objects = TelemetryEventQuerySet.as_manager()

    class Meta:
        verbose_name = _("telemetry event")
        verbose_name_plural = _("telemetry events")
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.game} {self.received_at:%Y-%m-%d %H:%M}"
