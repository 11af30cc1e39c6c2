from django import forms
from django.utils.translation import gettext_lazy as _

from core.fields import WholeNumberField
from games.engine.cards import RANKS
from games.forms import TableForm


class FantanTableForm(TableForm):
    min_seats = 3
    seating_error = _("Seat three or four players, from seat 1 on, clockwise.")
    option_names = (
        "start_rank",
        "ace_extra",
        "two_extra",
        "until_out",
        "scoring",
        "premium_1",
        "premium_2",
    )

    start_rank = forms.ChoiceField(
        label=_("Start card"),
        initial="8",
        choices=[(r, "10" if r == "T" else r) for r in reversed(RANKS)],
        help_text=_("Every suit's row starts with this rank."),
    )
    ace_extra = forms.BooleanField(label=_("One more card after an ace"), required=False)
    two_extra = forms.BooleanField(label=_("One more card after a two"), required=False)
    until_out = forms.TypedChoiceField(
        label=_("The deal ends"),
        coerce=int,
        initial=1,
        choices=[
            (1, _("when the first player is out")),
            (2, _("when two players are out (as in Кинг), with premiums")),
        ],
    )
    scoring = forms.ChoiceField(
        label=_("Scoring"),
        required=False,
        initial="",
        choices=[
            ("", _("as the rules say: a win, or premiums when two go out")),
            ("win", _("the first out scores 1")),
            ("premiums", _("premiums for the first and second out")),
            ("cards", _("cards: minus one a card left, the winner takes their sum")),
        ],
    )
    # their range is the rules' (engine.MOST_PREMIUM): start_table shows its refusal
    premium_1 = WholeNumberField(label=_("First premium"), initial=800)
    premium_2 = WholeNumberField(label=_("Second premium"), initial=500)

    def options(self) -> dict:
        data = self.cleaned_data
        options = {
            "players": len(data["seated"]),
            "start_rank": data["start_rank"],
            "ace_extra": data["ace_extra"],
            "two_extra": data["two_extra"],
            "until_out": data["until_out"],
            "premiums": [data["premium_1"], data["premium_2"]],
        }
        if data["scoring"]:
            options["scoring"] = data["scoring"]
        return options
