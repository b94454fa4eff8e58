"""Read-only admin for matches: enough to look into a stuck game. Seeds and token
hashes are left out; the log shows actions, which are the game's business."""

from django.contrib import admin

from matches.models import Action, Match, Seat


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["index", "colour", "kind", "cpu_level", "is_owner", "connections", "away_ms"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(ReadOnly):
    list_display = ["id", "game", "mode", "status", "seq", "created", "updated"]
    list_filter = ["game", "mode", "status"]
    fields = ["id", "game", "mode", "status", "seq", "settings", "due_at", "created", "updated"]
    readonly_fields = fields
    inlines = [SeatInline]


@admin.register(Action)
class ActionAdmin(ReadOnly):
    list_display = ["match", "seq", "kind", "seat", "actor", "created"]
    list_filter = ["kind", "actor"]
    fields = ["match", "seq", "kind", "seat", "actor", "action", "events", "created"]
    readonly_fields = fields
