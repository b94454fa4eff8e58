from django.contrib import admin

from poems.models import Poem, Poet


class ReadOnlyAdmin(admin.ModelAdmin):
    """The card database comes from the data files; the admin only shows it."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Poem)
class PoemAdmin(ReadOnlyAdmin):
    list_display = ("number", "kami", "shimo", "poet", "kimariji", "kimariji_length")
    list_filter = ("poet__poet_class", "kimariji_length")
    search_fields = ("kami", "shimo", "kami_kana", "shimo_kana", "poet__name", "poet__name_kana")
    list_select_related = ("poet",)


@admin.register(Poet)
class PoetAdmin(ReadOnlyAdmin):
    list_display = ("name", "name_kana", "poet_class")
    list_filter = ("poet_class",)
    search_fields = ("name", "name_kana")
