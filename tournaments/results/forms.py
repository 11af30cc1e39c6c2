"""The correction forms of a typed sheet's row: the reason, and the version of the row the page
showed (a change made since is not overwritten); the row itself is the typed sheet's
``SheetForm``. They parse what was typed; the services decide."""

from dataclasses import replace

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from core.wording import refusal_text

from .. import services
from ..run.forms import RowInputError, SheetForm, input_names
from ..run.selectors import Layout
from . import services as results_services

ROW = 1  # the one line of the row's form (its inputs are named as the typed sheet's first)


class ReasonForm(forms.Form):
    seen = forms.CharField(widget=forms.HiddenInput, required=False)
    # the service's own refusal, not "This field is required", says what is missing
    reason = forms.CharField(
        required=False,
        widget=forms.TextInput(attrs={"size": 60, "maxlength": 300, "autocomplete": "off"}),
    )

    def __init__(self, *args, label, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].label = label

    def clean_reason(self):
        try:
            return results_services.clean_reason(self.cleaned_data["reason"])
        except services.TournamentError as exc:
            raise forms.ValidationError(refusal_text(exc)) from None


class CorrectionForm(ReasonForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, label=_("Reason for the correction"), **kwargs)


class RevertForm(ReasonForm):
    """One earlier version put back; each version's form has inputs of its own."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, version: int, **kwargs):
        super().__init__(
            *args, label=_("Reason for putting it back"), auto_id=f"id_revert{version}_%s", **kwargs
        )
        self.fields["version"].initial = version


def row_form(layout: Layout, *, data=None, saved: dict | None = None) -> SheetForm:
    """The typed sheet's form for one row: only that row's inputs are read from ``data``."""
    one = replace(layout, length=1)
    if data is not None:
        names = {
            name for spec in layout.fields for name in input_names(spec, ROW, len(layout.names))
        }
        data = {name: value for name, value in data.items() if name in names}
    return SheetForm(one, data=data, saved=None if saved is None else [saved])


def typed_row(form: SheetForm) -> dict:
    """The row as typed; RowInputError when it is not a row (left empty, say)."""
    rows = form.rows()
    if not rows:
        raise RowInputError(ROW, gettext_noop("Fill in every column of the row."))
    return rows[0]
