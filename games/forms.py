from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .engine.cards import RANKS
from .models import Player

SEATS = 4


class TableForm(forms.Form):
    """Who sits where, clockwise from seat 1 (club players or new names), and the options."""

    game = ""
    seats = SEATS
    min_seats = SEATS
    option_names: tuple[str, ...] = ()
    seating_error = _("Seat four players, clockwise.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(self.seats):
            optional = i >= self.min_seats
            self.fields[f"seat_{i}"] = forms.ModelChoiceField(
                Player.objects.all(), required=False,
                label=pgettext_lazy("form", "Seat %(n)s") % {"n": i + 1},
                empty_label=_("— nobody —") if optional else "—")
            self.fields[f"new_{i}"] = forms.CharField(
                required=False, max_length=60, label=_("or a new player"))

    def seat_fields(self):
        return [(self[f"seat_{i}"], self[f"new_{i}"]) for i in range(self.seats)]

    def option_fields(self):
        return [self[name] for name in self.option_names]

    def clean(self):
        cleaned = super().clean()
        seated = []
        for i in range(self.seats):
            player = cleaned.get(f"seat_{i}")
            name = " ".join((cleaned.get(f"new_{i}") or "").split())
            if player and name:
                self.add_error(f"new_{i}", _("Choose a club player or type a new name, "
                                             "not both."))
            seated.append(player or name or None)
        filled = [s for s in seated if s]
        if len(filled) < self.min_seats or None in seated[:len(filled)]:
            raise forms.ValidationError(self.seating_error)
        keys = [Player.key_of(s.name if isinstance(s, Player) else s) for s in filled]
        if len(set(keys)) != len(keys):
            raise forms.ValidationError(_("A player can take only one seat."))
        cleaned["seated"] = filled
        return cleaned

    def seated(self) -> list:
        """Club players, or new names for the service to add, in seat order."""
        return self.cleaned_data["seated"]

    def options(self) -> dict:
        raise NotImplementedError


class FantanTableForm(TableForm):
    game = "fantan"
    min_seats = 3
    seating_error = _("Seat three or four players, from seat 1 on, clockwise.")
    option_names = ("start_rank", "ace_extra", "two_extra", "until_out", "scoring",
                    "premium_1", "premium_2")

    start_rank = forms.ChoiceField(
        label=_("Start card"), initial="8",
        choices=[(r, "10" if r == "T" else r) for r in reversed(RANKS)],
        help_text=_("Every suit's row starts with this rank."))
    ace_extra = forms.BooleanField(label=_("One more card after an ace"), required=False)
    two_extra = forms.BooleanField(label=_("One more card after a two"), required=False)
    until_out = forms.TypedChoiceField(
        label=_("The deal ends"), coerce=int, initial=1,
        choices=[(1, _("when the first player is out")),
                 (2, _("when two players are out (as in Кинг), with premiums"))])
    scoring = forms.ChoiceField(
        label=_("Scoring"), required=False, initial="",
        choices=[("", _("as the rules say: a win, or premiums when two go out")),
                 ("win", _("the first out scores 1")),
                 ("premiums", _("premiums for the first and second out")),
                 ("cards", _("cards: minus one a card left, the winner takes their sum"))])
    premium_1 = forms.IntegerField(label=_("First premium"), initial=800)
    premium_2 = forms.IntegerField(label=_("Second premium"), initial=500)

    def clean(self):
        cleaned = super().clean()
        if len(cleaned.get("seated", ())) == 3 and cleaned.get("start_rank") == "2":
            self.add_error("start_rank", _("Three players play without the two of clubs, so "
                                           "the rows cannot start with a two."))
        return cleaned

    def options(self) -> dict:
        data = self.cleaned_data
        options = {"players": len(data["seated"]), "start_rank": data["start_rank"],
                   "ace_extra": data["ace_extra"], "two_extra": data["two_extra"],
                   "until_out": data["until_out"],
                   "premiums": [data["premium_1"], data["premium_2"]]}
        if data["scoring"]:
            options["scoring"] = data["scoring"]
        return options


class VarietyTableForm(TableForm):
    game = "variety"
    option_names = ("cycle",)

    cycle = forms.ChoiceField(
        label=_("Cycle"), initial="full",
        choices=[("full", _("full: eight deals, each player deals twice")),
                 ("short", _("short: four deals, each player deals once"))])

    def options(self) -> dict:
        return {"cycle": self.cleaned_data["cycle"]}


class LeopardTableForm(TableForm):
    game = "leopard"
    seats = min_seats = 2
    seating_error = _("Seat two players.")
    option_names = ("match", "deals", "target")

    match = forms.ChoiceField(
        label=_("The match"), initial="deals", widget=forms.RadioSelect,
        choices=[("deals", _("an agreed number of deals")),
                 ("target", _("to a target score"))])
    deals = forms.IntegerField(label=_("Deals"), initial=4, min_value=1, max_value=100,
                               required=False, help_text=_("The deal alternates."))
    target = forms.IntegerField(label=_("Target score"), initial=33, min_value=1,
                                max_value=1000, required=False)

    def clean(self):
        cleaned = super().clean()
        plan = cleaned.get("match")
        if plan and not cleaned.get(plan):
            self.add_error(plan, _("Give the number."))
        return cleaned

    def options(self) -> dict:
        plan = self.cleaned_data["match"]
        return {plan: self.cleaned_data[plan]}


TABLE_FORMS = {form.game: form for form in (FantanTableForm, VarietyTableForm,
                                            LeopardTableForm)}
