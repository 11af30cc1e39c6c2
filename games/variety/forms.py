from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import TableForm


class VarietyTableForm(TableForm):
    option_names = ("cycle",)

    cycle = forms.ChoiceField(
        label=_("Cycle"),
        initial="full",
        choices=[
            ("full", _("full: eight deals, each player deals twice")),
            ("short", _("short: four deals, each player deals once")),
        ],
    )

    def options(self) -> dict:
        return {"cycle": self.cleaned_data["cycle"]}
