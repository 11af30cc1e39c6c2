from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .models import Player

SEATS = 4


class TableForm(forms.Form):
    """Who sits where, clockwise from seat 1 (club players or new names), and the options."""

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
