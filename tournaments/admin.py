"""The admin's score editing: a typed sheet's rows and the directors' adjustments change only
through the services, each change with its reason, checked as on the sheet page, and kept in
the history (django-simple-history: who, when, why, old → new), from which a version can be
put back. A table played here is not edited: its record is the truth (a director corrects
its results with an adjustment). Tournaments are read-only here.

Permissions are the roles' model permissions (tournaments/migrations/0002_roles.py: the
club's directors and organisers change rows and adjustments), and then only in a tournament
the member scores (rows) or directs (adjustments, ``tournaments.roles``). Scorers correct rows
on the club's own pages (``results.views``); the admin is the superusers' tool.

Every text is the club's: a row in words (seats from 1 with their players), and whole titles
in place of those Django builds by putting a model's name into "Select %s to change", where
Russian must decline the name."""

import json
from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

from core import wording
from core.numbers import signed

from . import roles, services
from .models import Adjustment, Entrant, Round, Season, SheetRow, TableSeat, Tournament
from .results import selectors as results_selectors
from .results import services as results_services
from .run.forms import AdjustmentPointsField


def refusal_text(exc: services.TournamentError, names: list[str] | None = None) -> str:
    """A refusal as the pages word it: a seat from 1 with its player (``names``, the
    table's in seat order), and the row at fault. A bound of the JSON's seats stays as the
    JSON counts them, from 0."""
    text = wording.refusal_text(exc, names, as_written=True)
    row = getattr(exc, "row", None)
    return gettext("Row %(row)s: %(reason)s") % {"row": row, "reason": text} if row else text


def row_layout(row: SheetRow):
    """The row's columns and its table's players, in seat order."""
    table = row.table  # its seats prefetched where rows are listed
    names = [
        str(seat.entrant.player)
        for seat in sorted(table.seats.all(), key=lambda seat: seat.position)
    ]
    return results_selectors.columns(table.round.tournament, names)


def words(layout, data) -> str:
    return "; ".join(
        f"{label}: {value}" for label, value in results_selectors.row_words(layout, data)
    )


@dataclass(frozen=True)
class Titles:
    """A model's titles in the admin, each a sentence of its own."""

    choose: str  # the list, to change
    choose_to_view: str
    change: str
    view: str
    count: Callable[[int], str]  # ngettext of "%(count)s …"
    add: str = ""
    revert: str = ""  # a version from the history, to put back


class CountedChangeList(ChangeList):
    @property
    def counted(self) -> str:
        count = self.result_count
        return self.model_admin.titles.count(count) % {"count": count}


class TitledAdmin(admin.ModelAdmin):
    """The titles and counts of ``titles`` in place of Django's; the templates
    admin/tournaments/*.html show them."""

    titles: Titles

    def get_changelist(self, request, **kwargs):
        return CountedChangeList

    def changelist_view(self, request, extra_context=None):
        title = (
            self.titles.choose
            if self.has_change_permission(request)
            else self.titles.choose_to_view
        )
        return super().changelist_view(
            request, {"title": title, "add_title": self.titles.add, **(extra_context or {})}
        )

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if add:
            context["title"] = self.titles.add
        else:
            context["title"] = (
                self.titles.change if self.has_change_permission(request, obj) else self.titles.view
            )
        context["add_title"] = self.titles.add
        return super().render_change_form(request, context, add, change, form_url, obj)


def reason_field(label):
    return forms.CharField(
        label=label,
        max_length=300,
        widget=forms.TextInput(attrs={"size": 80}),
        help_text=_("Kept in the history with who changed what, and when."),
    )


class ReasonForm(forms.ModelForm):
    """A change with its reason. ``reverting``: the form puts back a version from the
    history, whose ``values`` are shown and not edited here."""

    reverting = False
    values: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.reverting:
            for name in self.values:
                if name in self.fields:
                    self.fields[name].disabled = True


class SheetRowForm(ReasonForm):
    values = ("data",)
    reason = reason_field(capfirst(_("reason for the change")))

    class Meta:
        model = SheetRow
        fields = ["data"]
        labels = {"data": _("The row as recorded (JSON)")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.names = row_layout(self.instance).names
        if "data" in self.fields:
            self.fields["data"].help_text = gettext(
                "As the tournament document writes it: a seat is its number from 0, in seat "
                "order (%(seats)s)."
            ) % {"seats": ", ".join(f"{seat} — {name}" for seat, name in enumerate(self.names))}

    def clean(self):
        cleaned = super().clean()
        if "data" in cleaned and not self.has_error("data"):
            try:
                cleaned["data"] = results_services.check_row_change(
                    row=self.instance, data=cleaned["data"]
                )
            except services.TournamentError as exc:
                self.add_error("data", refusal_text(exc, self.names))
        return cleaned


class AdjustmentForm(ReasonForm):
    """Adding: the round, the entrant, the points and the stated reason (which is also the
    change's). Changing: the points and the stated reason, with the change's reason."""

    values = ("points", "reason")
    change_reason = reason_field(capfirst(_("reason for the change")))

    class Meta:
        model = Adjustment
        fields = ["round", "entrant", "points", "reason"]
        labels = {"round": capfirst(_("round"))}
        field_classes = {"points": AdjustmentPointsField}

    user = None  # the member adding it: set by the admin

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            self.fields.pop("change_reason", None)  # the stated reason says why
        if "round" in self.fields:
            directed = roles.directed(self.user)  # his tournaments' rounds only
            self.fields["round"].queryset = Round.objects.select_related("tournament").filter(
                tournament__in=directed
            )
            self.fields["entrant"].queryset = Entrant.objects.select_related(
                "tournament", "player"
            ).filter(tournament__in=directed)

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None:
            round_, entrant = cleaned.get("round"), cleaned.get("entrant")
            if round_ and entrant and round_.tournament_id != entrant.tournament_id:
                self.add_error("entrant", gettext("That entrant is not in this tournament."))
        elif "points" in cleaned and "reason" in cleaned:
            try:
                results_services.check_adjustment_change(
                    adjustment=self.instance, points=cleaned["points"], note=cleaned["reason"]
                )
            except services.TournamentError as exc:
                self.add_error(None, refusal_text(exc))
        return cleaned


class JsonContextHelper(HistoricalRecordContextHelper):
    """Old and new values shown whole; JSON with its keys sorted."""

    def __init__(self, model, record):
        super().__init__(model, record, max_displayed_delta_change_chars=400)

    def prepare_delta_change_value(self, change, value):
        if isinstance(value, dict | list):  # keys sorted: PostgreSQL's JSONB keeps no order
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        return super().prepare_delta_change_value(change, value)


class RowWordsContextHelper(JsonContextHelper):
    """A row's change as the columns that changed, in words: seats from 1 with their
    players."""

    def __init__(self, model, record, layout):
        super().__init__(model, record)
        self.layout = layout

    def context_for_delta_changes(self, delta):
        shown = []
        for change in delta.changes:
            if change.field != "data":
                shown += super().context_for_delta_changes(
                    type(delta)([change], [change.field], delta.old_record, delta.new_record)
                )
                continue
            shown += [
                {"field": column.label, "old": column.old, "new": column.new}
                for column in results_selectors.changes(self.layout, change.old, change.new)
            ]
        return shown


class ReasonedHistoryAdmin(TitledAdmin, SimpleHistoryAdmin):
    """Changes through a service with a reason; a version is put back from its page in the
    history ("Revert"), with a reason too. Nothing is deleted here."""

    history_list_display = []
    object_history_form_template = "admin/tournaments/object_history_form.html"

    def get_historical_record_context_helper(self, request, historical_record):
        return JsonContextHelper(self.model, historical_record)

    def set_history_delta_changes(self, request, historical_records, **kwargs):
        super().set_history_delta_changes(request, historical_records, **kwargs)
        for record in historical_records:  # the services' first reason, translated
            record.history_change_reason = results_selectors.reason_words(
                record.history_change_reason
            )

    def has_delete_permission(self, request, obj=None):
        return False

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if not str(version_id).isdigit():
            raise Http404
        if request.method == "POST":  # the package checks only the view permission
            obj = self.get_object(request, unquote(object_id))
            if obj is None or not self.has_change_permission(request, obj):
                raise PermissionDenied
        request.reverting_to = int(version_id)
        return super().history_form_view(
            request,
            object_id,
            version_id,
            {"revert_title": self.titles.revert, **(extra_context or {})},
        )

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if getattr(request, "reverting_to", None) is not None:
            form = type(form.__name__, (form,), {"reverting": True})
        return form

    reason_fields: tuple[str, ...] = ()  # the form's, not the model's

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and not self.has_change_permission(request, obj):
            return [name for name in fields if name not in self.reason_fields]
        return fields

    def save_model(self, request, obj, form, change):
        raise NotImplementedError  # each admin saves through its service


class TournamentFilter(admin.RelatedFieldListFilter):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.title = _("tournament")  # not the field's name, which is untranslated


@admin.register(SheetRow)
class SheetRowAdmin(ReasonedHistoryAdmin):
    form = SheetRowForm
    titles = Titles(
        choose=_("Choose a sheet row to change"),
        choose_to_view=_("Choose a sheet row to view"),
        change=_("Change the sheet row"),
        view=_("View the sheet row"),
        count=lambda n: ngettext("%(count)s sheet row", "%(count)s sheet rows", n),
        revert=_("Put back a version of the sheet row"),
    )
    list_display = ["__str__", "tournament", "table_of", "deal", "in_words", "played_here"]
    list_filter = [("table__round__tournament", TournamentFilter)]
    list_select_related = ["table__round__tournament"]
    readonly_fields = ["tournament", "table_of", "deal", "in_words", "club_page", "created_at"]
    fields = [
        "tournament",
        "table_of",
        "deal",
        "in_words",
        "data",
        "reason",
        "club_page",
        "created_at",
    ]
    reason_fields = ("reason",)

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("table__round__tournament")
            .prefetch_related(
                Prefetch("table__seats", TableSeat.objects.select_related("entrant__player"))
            )
        )

    def get_historical_record_context_helper(self, request, historical_record):
        if not hasattr(request, "row_layout"):  # one row's history: its table's
            request.row_layout = row_layout(historical_record.instance)
        return RowWordsContextHelper(self.model, historical_record, request.row_layout)

    @admin.display(description=_("tournament"))
    def tournament(self, row):
        return row.table.round.tournament

    @admin.display(description=_("table"))
    def table_of(self, row):
        return gettext("Round %(round)s, table %(table)s") % {
            "round": row.table.round.number,
            "table": row.table.number,
        }

    @admin.display(description=_("deal"))
    def deal(self, row):
        return row.index

    @admin.display(description=_("as the sheet shows it"))
    def in_words(self, row):
        return words(row_layout(row), row.data)

    @admin.display(description=_("on the club's pages"))
    def club_page(self, row):
        url = reverse(
            "tournament-row", args=[row.table.round.tournament.key, row.table_id, row.index]
        )
        return format_html(
            '<a href="{}">{}</a>', url, gettext("The row's page: its history, and corrections")
        )

    @admin.display(description=_("played here"), boolean=True)
    def played_here(self, row):
        return row.table.hotseat_id is not None

    def has_add_permission(self, request):
        return False  # a sheet is typed in on its page

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.table.hotseat_id is not None:
            return False  # its deals are the truth
        if obj is not None and not roles.scores(request.user, obj.table.round.tournament):
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        reason = form.cleaned_data["reason"]
        if getattr(request, "reverting_to", None) is not None:
            results_services.revert_row(
                row=obj, history_id=request.reverting_to, reason=reason, user=request.user
            )
        else:
            results_services.correct_row(
                row=obj, data=form.cleaned_data["data"], reason=reason, user=request.user
            )


@admin.register(Adjustment)
class AdjustmentAdmin(ReasonedHistoryAdmin):
    form = AdjustmentForm
    titles = Titles(
        choose=_("Choose an adjustment to change"),
        choose_to_view=_("Choose an adjustment to view"),
        change=_("Change the adjustment"),
        view=_("View the adjustment"),
        count=lambda n: ngettext("%(count)s adjustment", "%(count)s adjustments", n),
        add=_("Add an adjustment"),
        revert=_("Put back a version of the adjustment"),
    )
    list_display = ["__str__", "round_of", "entrant", "signed_points", "reason", "by", "created_at"]
    list_filter = [("round__tournament", TournamentFilter)]
    list_select_related = ["round__tournament", "entrant__player", "by"]
    history_list_display = ["points", "reason"]
    fields = ["round_of", "entrant", "points", "reason", "change_reason", "by", "created_at"]

    reason_fields = ("change_reason",)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["round", "entrant", "points", "reason"]
        return super().get_fields(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else ["round_of", "entrant", "by", "created_at"]

    @admin.display(description=_("round"))
    def round_of(self, adjustment):
        return adjustment.round

    @admin.display(description=_("game points"), ordering="points")
    def signed_points(self, adjustment):
        return signed(adjustment.points)

    def has_change_permission(self, request, obj=None):
        if obj is not None and not roles.directs(request.user, obj.round.tournament):
            return False
        return super().has_change_permission(request, obj)

    def has_add_permission(self, request):
        return super().has_add_permission(request) and roles.directed(request.user).exists()

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"user": request.user})

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if not change:
            added = results_services.add_adjustment(
                round_=data["round"],
                entrant=data["entrant"],
                points=data["points"],
                reason=data["reason"],
                user=request.user,
            )
            obj.pk, obj.by, obj.created_at = added.pk, added.by, added.created_at
        elif getattr(request, "reverting_to", None) is not None:
            results_services.revert_adjustment(
                adjustment=obj,
                history_id=request.reverting_to,
                reason=data["change_reason"],
                user=request.user,
            )
        else:
            results_services.correct_adjustment(
                adjustment=obj,
                points=data["points"],
                note=data["reason"],
                reason=data["change_reason"],
                user=request.user,
            )


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    can_delete = False
    fields = readonly_fields = ["number", "player", "joined_round", "withdrawn_after"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(TitledAdmin):
    """An overview: a tournament is created and run on its own pages."""

    titles = Titles(
        choose=_("Choose a tournament to change"),
        choose_to_view=_("Choose a tournament to view"),
        change=_("Change the tournament"),
        view=_("View the tournament"),
        count=lambda n: ngettext("%(count)s tournament", "%(count)s tournaments", n),
    )

    list_display = ["name", "key", "game", "rounds_planned", "created_by", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "key"]
    readonly_fields = [
        "key",
        "name",
        "game",
        "options",
        "game_settings",
        "rounds_planned",
        "seating",
        "seed",
        "bye_points",
        "order",
        "duplicate",
        "confirmation",
        "created_by",
        "created_at",
    ]
    inlines = [EntrantInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeasonTournamentInline(admin.TabularInline):
    model = Tournament
    extra = 0
    can_delete = False
    fields = readonly_fields = ["name", "key", "date"]
    verbose_name = _("tournament of the season")
    verbose_name_plural = _("tournaments of the season")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(TitledAdmin):
    """An overview: a season is created, changed and given its tournaments on its own
    pages (each change audited)."""

    titles = Titles(
        choose=_("Choose a season to change"),
        choose_to_view=_("Choose a season to view"),
        change=_("Change the season"),
        view=_("View the season"),
        count=lambda n: ngettext("%(count)s season", "%(count)s seasons", n),
    )

    list_display = ["name", "key", "game", "scoring", "created_by", "created_at"]
    list_filter = ["game", "scoring"]
    search_fields = ["name", "key"]
    readonly_fields = [
        "key",
        "name",
        "game",
        "scoring",
        "place_points",
        "created_by",
        "created_at",
    ]
    inlines = [SeasonTournamentInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
