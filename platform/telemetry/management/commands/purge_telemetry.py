from django.core.management.base import BaseCommand

from telemetry.models import PURGE_BATCH, TelemetryEvent


class Command(BaseCommand):
    help = "Delete telemetry events older than 30 days (the daily Celery task does the same)."

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=PURGE_BATCH)

    def handle(self, *args, batch_size: int, **options):
        deleted = TelemetryEvent.objects.purge_expired(batch_size=batch_size)
        self.stdout.write(f"Deleted {deleted} telemetry events older than 30 days.")
