from django import forms
from django.utils.translation import gettext_lazy as _

from core.fields import WholeNumberField
from games.forms import TableForm


class LeopardTableForm(TableForm):
    seats = min_seats = 2
    seating_error = _("Seat two players.")
    option_names = ("match", "deals", "target")

    match = forms.ChoiceField(
        label=_("The match"),
        initial="deals",
        widget=forms.RadioSelect,
        choices=[("deals", _("an agreed number of deals")), ("target", _("to a target score"))],
    )
    # their range is the rules' (engine.MOST_MATCH): start_table refuses at the field
    deals = WholeNumberField(
        label=_("Deals"), initial=4, required=False, help_text=_("The deal alternates.")
    )
    target = WholeNumberField(label=_("Target score"), initial=33, required=False)

    def clean(self):
        cleaned = super().clean()
        plan = cleaned.get("match")
        if plan and plan not in self.errors and cleaned.get(plan) is None:
            self.add_error(plan, _("Give the number."))
        return cleaned

    def options(self) -> dict:
        plan = self.cleaned_data["match"]
        return {plan: self.cleaned_data[plan]}
