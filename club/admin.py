"""The admin: players are edited through the services; the audit log is read-only."""

from django.contrib import admin

from . import services
from .models import AuditEntry, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]

    def save_model(self, request, obj, form, change):
        services.save_player(player=obj, by=request.user)


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model the admin shows and never changes."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "user", "verb", "table", "deal"]
    list_filter = ["verb"]
    list_select_related = ["user", "table", "deal__table"]
    readonly_fields = ["created_at", "user", "verb", "table", "deal", "data"]
