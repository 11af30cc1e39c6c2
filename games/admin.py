"""The admin: players are edited through the services; tables, deals and their logs are
read-only here (a deal changes only by its own actions)."""

from django.contrib import admin

from . import services
from .models import AuditEntry, Cycle, Deal, DealEvent, Player, Seat, Table


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]

    def save_model(self, request, obj, form, change):
        services.save_player(player=obj, by=request.user)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["position", "player", "robot"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "name", "game", "state", "created_by", "created_at"]
    list_filter = ["game", "state"]
    readonly_fields = ["token", "game", "name", "state", "options", "created_by", "created_at"]
    inlines = [SeatInline]


@admin.register(Cycle)
class CycleAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "number", "length", "target", "created_at"]
    list_filter = ["table__game"]
    list_select_related = ["table"]
    readonly_fields = ["table", "number", "length", "target", "created_at"]


class DealEventInline(admin.TabularInline):
    model = DealEvent
    extra = 0
    can_delete = False
    readonly_fields = ["index", "kind", "seat", "data", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "number", "dealer", "version", "is_over", "updated_at"]
    list_filter = ["is_over", "table__game"]
    list_select_related = ["table"]
    readonly_fields = ["table", "number", "dealer", "seed", "dealt", "version", "is_over",
                       "result", "snapshot", "created_at", "updated_at"]
    inlines = [DealEventInline]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "user", "verb", "table", "deal"]
    list_filter = ["verb"]
    list_select_related = ["user", "table", "deal__table"]
    readonly_fields = ["created_at", "user", "verb", "table", "deal", "data"]
