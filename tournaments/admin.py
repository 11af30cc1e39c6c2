"""The admin's score editing: a typed sheet's rows and the directors' adjustments change only
through the services, each change with its reason, checked as on the sheet page, and kept in
the history (django-simple-history: who, when, why, old → new), from which a version can be
put back. A table played here is not edited: its record is the truth (a director corrects
its results with an adjustment). Tournaments are read-only here.

Permissions are the roles' model permissions (tournaments/migrations/0002_roles.py):
directors change rows and adjustments, scorers rows only."""

import json

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

from . import services
from .models import Adjustment, Entrant, Round, SheetRow, Tournament


def refusal_text(exc: services.TournamentError) -> str:
    text = gettext(exc.message) % exc.params if exc.params else gettext(exc.message)
    row = getattr(exc, "row", None)
    return gettext("Row %(row)s: %(reason)s") % {"row": row, "reason": text} if row else text


def reason_field(label):
    return forms.CharField(
        label=label, max_length=300, widget=forms.TextInput(attrs={"size": 80}),
        help_text=_("Kept in the history with who changed what, and when."))


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
    reason = reason_field(_("reason for the change"))

    class Meta:
        model = SheetRow
        fields = ["data"]

    def clean(self):
        cleaned = super().clean()
        if "data" in cleaned and not self.has_error("data"):
            try:
                cleaned["data"] = services.check_row_change(row=self.instance,
                                                            data=cleaned["data"])
            except services.TournamentError as exc:
                self.add_error("data", refusal_text(exc))
        return cleaned


class AdjustmentForm(ReasonForm):
    """Adding: the round, the entrant, the points and the stated reason (which is also the
    change's). Changing: the points and the stated reason, with the change's reason."""

    values = ("points", "reason")
    change_reason = reason_field(_("reason for the change"))

    class Meta:
        model = Adjustment
        fields = ["round", "entrant", "points", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            self.fields.pop("change_reason", None)  # the stated reason says why
        if "round" in self.fields:
            self.fields["round"].queryset = Round.objects.select_related("tournament")
            self.fields["entrant"].queryset = Entrant.objects.select_related(
                "tournament", "player")

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None:
            round_, entrant = cleaned.get("round"), cleaned.get("entrant")
            if round_ and entrant and round_.tournament_id != entrant.tournament_id:
                self.add_error("entrant", gettext("That entrant is not in this tournament."))
        elif "points" in cleaned and "reason" in cleaned:
            try:
                services.check_adjustment_change(adjustment=self.instance,
                                                 points=cleaned["points"],
                                                 note=cleaned["reason"])
            except services.TournamentError as exc:
                self.add_error(None, refusal_text(exc))
        return cleaned


class JsonContextHelper(HistoricalRecordContextHelper):
    """A row's old and new values shown whole, as JSON."""

    def __init__(self, model, record):
        super().__init__(model, record, max_displayed_delta_change_chars=400)

    def prepare_delta_change_value(self, change, value):
        if isinstance(value, dict | list):  # keys sorted: PostgreSQL's JSONB keeps no order
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        return super().prepare_delta_change_value(change, value)


class ReasonedHistoryAdmin(SimpleHistoryAdmin):
    """Changes through a service with a reason; a version is put back from its page in the
    history ("Revert"), with a reason too. Nothing is deleted here."""

    history_list_display = []

    def get_historical_record_context_helper(self, request, historical_record):
        return JsonContextHelper(self.model, historical_record)

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
        return super().history_form_view(request, object_id, version_id, extra_context)

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


@admin.register(SheetRow)
class SheetRowAdmin(ReasonedHistoryAdmin):
    form = SheetRowForm
    list_display = ["__str__", "tournament", "index", "data", "played_here"]
    list_filter = ["table__round__tournament"]
    list_select_related = ["table__round__tournament"]
    readonly_fields = ["tournament", "table", "index", "created_at"]
    fields = ["tournament", "table", "index", "data", "reason", "created_at"]
    reason_fields = ("reason",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("table__round__tournament")

    @admin.display(description=_("tournament"))
    def tournament(self, row):
        return row.table.round.tournament

    @admin.display(description=_("played here"), boolean=True)
    def played_here(self, row):
        return row.table.hotseat_id is not None

    def has_add_permission(self, request):
        return False  # a sheet is typed in on its page

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.table.hotseat_id is not None:
            return False  # its deals are the truth
        return super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        reason = form.cleaned_data["reason"]
        if getattr(request, "reverting_to", None) is not None:
            services.revert_row(row=obj, history_id=request.reverting_to, reason=reason,
                                user=request.user)
        else:
            services.correct_row(row=obj, data=form.cleaned_data["data"], reason=reason,
                                 user=request.user)


@admin.register(Adjustment)
class AdjustmentAdmin(ReasonedHistoryAdmin):
    form = AdjustmentForm
    list_display = ["__str__", "round", "entrant", "points", "reason", "by", "created_at"]
    list_filter = ["round__tournament"]
    list_select_related = ["round__tournament", "entrant__player", "by"]
    history_list_display = ["points", "reason"]
    fields = ["round", "entrant", "points", "reason", "change_reason", "by", "created_at"]

    reason_fields = ("change_reason",)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["round", "entrant", "points", "reason"]
        return super().get_fields(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else ["round", "entrant", "by", "created_at"]

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if not change:
            added = services.add_adjustment(
                round_=data["round"], entrant=data["entrant"], points=data["points"],
                reason=data["reason"], user=request.user)
            obj.pk, obj.by, obj.created_at = added.pk, added.by, added.created_at
        elif getattr(request, "reverting_to", None) is not None:
            services.revert_adjustment(adjustment=obj, history_id=request.reverting_to,
                                       reason=data["change_reason"], user=request.user)
        else:
            services.correct_adjustment(adjustment=obj, points=data["points"],
                                        note=data["reason"], reason=data["change_reason"],
                                        user=request.user)


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
class TournamentAdmin(admin.ModelAdmin):
    """An overview: a tournament is created and run on its own pages."""

    list_display = ["name", "key", "game", "rounds_planned", "created_by", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "key"]
    readonly_fields = ["key", "name", "game", "options", "game_settings", "rounds_planned",
                       "seating", "seed", "bye_points", "order", "confirmation", "created_by",
                       "created_at"]
    inlines = [EntrantInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
