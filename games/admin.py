"""The admin: tables, deals and their logs are read-only here (a deal changes only by its
own actions)."""

from django.contrib import admin

from club.admin import ReadOnlyAdmin

from .models import Cycle, Deal, DealEvent, Seat, Table


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
    readonly_fields = [
        "table",
        "number",
        "dealer",
        "seed",
        "dealt",
        "version",
        "is_over",
        "result",
        "snapshot",
        "created_at",
        "updated_at",
    ]
    inlines = [DealEventInline]
