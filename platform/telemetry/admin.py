from django.contrib import admin

from telemetry.models import TelemetryEvent


@admin.register(TelemetryEvent)
class TelemetryEventAdmin(admin.ModelAdmin):
    """Read-only: events come only from the intake and leave only by the 30-day purge."""

    list_display = (
        "received_at", "kind", "game", "mode", "result", "device", "browser", "os", "page_view",
    )  # fmt: skip
    list_filter = ("kind", "game", "mode", "result", "device", "browser", "os", "received_at")
    search_fields = ("kind", "game", "mode", "result", "browser", "os", "page_view")
    date_hierarchy = "received_at"
    list_per_page = 100
    show_full_result_count = False  # COUNT(*) over a big table on every page is slow

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
