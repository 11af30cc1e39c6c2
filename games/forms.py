from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from club.models import Player

from . import robot_seats

SEATS = 4
# where each person plays: at the one screen passed round the table, or on his own device
PLACES = [
    ("screen", _("at the shared screen")),
    ("device", _("on their own device")),
]


class TableForm(forms.Form):
    """Who sits where, clockwise from seat 1 (club players, new names or robots at a
    strength, for a game that has robots), and the options."""

    seats = SEATS
    min_seats = SEATS
    option_names: tuple[str, ...] = ()
    seating_error = _("Seat four players, clockwise.")

    def __init__(self, *args, game: str = "", **kwargs):
        """``game``: the game's key, so that its robots may be offered for the seats."""
        super().__init__(*args, **kwargs)
        self.game_key = game
        for i in range(self.seats):
            optional = i >= self.min_seats
            self.fields[f"seat_{i}"] = forms.ModelChoiceField(
                Player.objects.all(),
                required=False,
                label=pgettext_lazy("form", "Seat %(n)s") % {"n": i + 1},
                empty_label=_("— nobody —") if optional else "—",
            )
            self.fields[f"new_{i}"] = forms.CharField(
                required=False, max_length=60, label=_("or a new player")
            )
            self.fields[f"device_{i}"] = forms.TypedChoiceField(
                choices=PLACES,
                coerce=lambda value: value == "device",
                required=False,
                initial="screen",
                label=_("plays"),
            )
            if self.has_robots():
                self.fields[f"robot_{i}"] = forms.ChoiceField(
                    choices=[("", _("— a person —")), *robot_seats.CHOICES],
                    required=False,
                    label=_("or a robot"),
                )

    def has_robots(self) -> bool:
        return bool(self.game_key) and robot_seats.has_robots(self.game_key)

    def seat_fields(self):
        return [
            (
                self[f"seat_{i}"],
                self[f"new_{i}"],
                self[f"robot_{i}"] if self.has_robots() else None,
                self[f"device_{i}"],
            )
            for i in range(self.seats)
        ]

    def option_fields(self):
        return [self[name] for name in self.option_names]

    def clean(self):
        cleaned = super().clean()
        seated, devices = [], set()
        for i in range(self.seats):
            player = cleaned.get(f"seat_{i}")
            name = " ".join((cleaned.get(f"new_{i}") or "").split())
            strength = cleaned.get(f"robot_{i}") or ""
            if player and name:
                self.add_error(f"new_{i}", _("Choose a club player or type a new name, not both."))
            if strength and (player or name):
                self.add_error(f"robot_{i}", _("Seat a person or a robot, not both."))
            robot = robot_seats.RobotSeat(strength) if strength else None
            if cleaned.get(f"device_{i}"):
                if robot:
                    self.add_error(f"device_{i}", _("A robot needs no device."))
                devices.add(i)
            seated.append(player or name or robot or None)
        filled = [s for s in seated if s]
        if len(filled) < self.min_seats or None in seated[: len(filled)]:
            raise forms.ValidationError(self.seating_error)
        # who may sit with whom (a person at every table, one seat a person) is
        # games.services.start_table's to refuse: ``refuse`` shows its words
        cleaned["seated"] = filled
        cleaned["devices"] = {i for i in devices if i < len(filled)}
        return cleaned

    def refuse(self, refusal, text: str) -> None:
        """The service's ``refusal``, worded ``text``, at the field of the option it names
        (``OptionRefused``), else at the top of the form."""
        option = getattr(refusal, "option", None)
        self.add_error(option if option in self.option_names else None, text)

    def seated(self) -> list:
        """Club players, or new names for the service to add, in seat order."""
        return self.cleaned_data["seated"]

    def devices(self) -> set[int]:
        """The seats played on their players' own devices, the rest at the shared screen."""
        return self.cleaned_data["devices"]

    def options(self) -> dict:
        raise NotImplementedError
