"""The directors' and scorers' forms: they parse what was typed; the services decide."""

import random
import secrets
from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from club.models import Player
from core.fields import DecimalNumberField, WholeNumberField, whole_number
from core.refusals import Refusal
from core.wording import refusal_text
from games import registry

from ..document import DUPLICATE_ORDER, MOST_ROUNDS, SEEDS
from ..models import DealRuling, Entrant, Official, Tournament
from ..results.services import MOST_ADJUSTMENT
from ..roles import candidates
from .selectors import Layout, sub_heads

ORDERS = {
    "default": ["match_points", "points", "opponents", "wins"],
    "points": ["points", "match_points"],
    "percent": DUPLICATE_ORDER,
}
SETTING_LABELS = {"deals": _("Deals at each table in a round")}
MOST_ROWS = 500  # a typed sheet is never longer than this
MOST_NAMES = 200  # names entered at once
NAME_LENGTH = Player._meta.get_field("name").max_length
MOST_FIGURE = 10**6  # a typed sheet's figure, either way: no game's row comes near it


def model_label(name: str):
    return capfirst(Tournament._meta.get_field(name).verbose_name)


def options_form(game, data=None):
    """The game's own table form with its option fields only: a tournament's tables are
    seated by its rounds, not here."""

    class OptionsForm(game.form):
        seats = min_seats = 0

    return OptionsForm(data, prefix="option")


class TournamentForm(forms.Form):
    """A new tournament of ``game``: its name, the game's options (the game's own table form's
    option fields), its settings and how its rounds are seated and ranked."""

    name = forms.CharField(label=model_label("name"), max_length=200)
    date = forms.DateField(
        label=model_label("date"),
        required=False,
        initial=timezone.localdate,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    rounds_planned = WholeNumberField(
        label=model_label("rounds_planned"), min_value=1, max_value=MOST_ROUNDS, initial=3
    )
    seating = forms.ChoiceField(label=model_label("seating"), choices=Tournament.Seating.choices)
    seed = WholeNumberField(
        label=model_label("seed"),
        min_value=SEEDS.start,
        max_value=SEEDS.stop - 1,
        help_text=_(
            "Drawn at random: every round's seating follows from it, and a duplicate "
            "tournament's deals."
        ),
    )
    bye_points = DecimalNumberField(
        label=model_label("bye_points"), min_value=0, max_digits=6, decimal_places=2, initial=3
    )
    order = forms.ChoiceField(
        label=model_label("order"),
        initial="default",
        choices=[
            ("default", _("match points, then game points, opponents' match points, wins")),
            ("points", _("game points first, then match points")),
            ("percent", _("duplicate: percentage, then the field figure")),
        ],
        help_text=_("A duplicate tournament ranks by percentage unless another order is chosen."),
    )
    duplicate = forms.BooleanField(
        label=model_label("duplicate"),
        required=False,
        help_text=Tournament._meta.get_field("duplicate").help_text,
    )
    confirmation = forms.BooleanField(
        label=model_label("confirmation"),
        required=False,
        help_text=Tournament._meta.get_field("confirmation").help_text,
    )
    # this form's own: sent twice (a double click), it creates one tournament
    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, game, data=None):
        super().__init__(data)
        self.game = game
        self.parts = registry.tournament(game.key)
        self.options_form = options_form(game, data)
        self.fields["seating"].initial = self.parts.seating
        # a duplicate tournament's deals follow from it: too many to try them all
        self.fields["seed"].initial = random.SystemRandom().randrange(1, 2**62)
        self.fields["token"].initial = secrets.token_urlsafe(16)
        defaults = self.parts.read_settings({})
        for name in self.parts.setting_names:
            self.fields[f"setting_{name}"] = WholeNumberField(
                label=SETTING_LABELS.get(name, name), initial=defaults[name], min_value=1
            )

    def main_fields(self):
        return [
            self[name]
            for name in (
                "name",
                "date",
                "rounds_planned",
                "seating",
                "seed",
                "bye_points",
                "duplicate",
                "order",
            )
        ]

    def setting_fields(self):
        return [self[f"setting_{name}"] for name in self.parts.setting_names]

    def is_valid(self) -> bool:
        options_valid = self.options_form.is_valid()  # both, so both show their errors
        return super().is_valid() and options_valid

    def options(self) -> dict:
        """The game's options as its table form reads them, without what each table sets
        from its own size."""
        per_table = set(self.parts.table_options({}, max(self.parts.allowed_sizes())))
        return {
            key: value for key, value in self.options_form.options().items() if key not in per_table
        }

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        bye = data["bye_points"]
        return {
            "name": data["name"],
            "game": self.game.key,
            "options": self.options(),
            "settings": {name: data[f"setting_{name}"] for name in self.parts.setting_names},
            "rounds_planned": data["rounds_planned"],
            "seating": data["seating"],
            "seed": data["seed"],
            "bye_points": int(bye) if bye == int(bye) else float(bye),
            # the default order ranks a duplicate tournament by its percentages
            "order": ORDERS[
                "percent" if data["duplicate"] and data["order"] == "default" else data["order"]
            ],
            "duplicate": data["duplicate"],
            "confirmation": data["confirmation"],
            "date": data["date"],
            "form_token": data["token"] or None,
        }


class EntrantChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return str(obj.player)


class EntrantForm(forms.Form):
    """Club players ticked and names typed one a line (a club player's name enters him, a
    new one adds him to the club) enter together: ``entering`` lists them in that order,
    the ticked first; each line up to the last filled one is passed on, a blank one too,
    for the service to refuse by its line."""

    player = forms.ModelMultipleChoiceField(
        Player.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Club players not yet entered"),
    )
    name = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 30}),
        max_length=MOST_NAMES * (NAME_LENGTH + 2),
        label=_("Names, one a line"),
        help_text=_(
            "A club player's name enters that player; a new name adds the player to the club."
        ),
    )

    def __init__(self, tournament, data=None):
        super().__init__(data, prefix="enter")
        # Offered: those not yet entered. Taken: any club player, so that one entered since
        # the page was shown is refused by name rather than as an unknown choice.
        self.fields["player"].widget.choices = [
            (player.pk, player.name)
            for player in Player.objects.exclude(entries__tournament=tournament).order_by("name")
        ]
        self.ticked = 0

    def clean_name(self) -> list[str]:
        lines = (self.cleaned_data.get("name") or "").splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        if len(lines) > MOST_NAMES:
            raise forms.ValidationError(
                _("At most %(count)s names at once.") % {"count": MOST_NAMES}
            )
        return lines

    def clean(self):
        cleaned = super().clean()
        ticked = sorted(cleaned.get("player") or [], key=lambda player: player.name)
        lines = cleaned.get("name") or []
        if "player" in cleaned and "name" in cleaned and not ticked and not lines:
            raise forms.ValidationError(_("Tick club players or type names, one a line."))
        self.ticked = len(ticked)
        cleaned["entering"] = [*ticked, *lines]
        return cleaned

    def refuse(self, exc) -> None:
        """The service's refusal of one entry, shown at the ticked players or at the line
        it names (but for a single entry, which needs no line number)."""
        text = refusal_text(exc)
        if exc.index < self.ticked:
            self.add_error("player", text)
        elif len(self.cleaned_data["entering"]) == 1:
            self.add_error("name", text)
        else:
            self.add_error(
                "name",
                _("Line %(line)s: %(reason)s")
                % {"line": exc.index - self.ticked + 1, "reason": text},
            )


class SwapForm(forms.Form):
    """Two entrants of a draft round exchange their places."""

    first = EntrantChoice(Entrant.objects.none(), label=_("Swap"), empty_label="—")
    second = EntrantChoice(Entrant.objects.none(), label=_("with"), empty_label="—")

    def __init__(self, round_, data=None):
        super().__init__(data, prefix=f"swap{round_.number}")
        entrants = (
            Entrant.objects.filter(Q(seats__table__round=round_) | Q(byes__round=round_))
            .distinct()
            .select_related("player")
            .order_by("number")
        )
        self.fields["first"].queryset = self.fields["second"].queryset = entrants


class AdjustmentPointsField(WholeNumberField):
    """An adjustment's game points: digits 0 to 9, within the service's range."""

    def __init__(self, **kwargs):
        super().__init__(min_value=-MOST_ADJUSTMENT, max_value=MOST_ADJUSTMENT, **kwargs)


class AdjustForm(forms.Form):
    """A director's penalty or correction of one entrant's game points in one round."""

    entrant = EntrantChoice(Entrant.objects.none(), label=_("Entrant"), empty_label="—")
    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    points = AdjustmentPointsField(label=_("Game points (+ or −)"))
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, tournament, data=None):
        super().__init__(data, prefix="adjust")
        self.tournament = tournament
        self.fields["entrant"].queryset = tournament.entrants.select_related("player")
        self.fields["round"].choices = [
            (n, n) for n in tournament.rounds.order_by("number").values_list("number", flat=True)
        ]

    def clean_points(self):
        points = self.cleaned_data["points"]
        if points == 0:
            raise forms.ValidationError(_("An adjustment of 0 changes nothing."))
        return points

    def round_model(self):
        return self.tournament.rounds.get(number=self.cleaned_data["round"])


class RulingForm(forms.Form):
    """A director's ruling on a deal of a duplicate round's table: fouled (the whole
    table) or an adjusted result for one seat. ``tables``: the round's tables as (id,
    number, seats, deals); the service checks the deal and the seat against the table
    chosen."""

    table = forms.TypedChoiceField(label=_("Table"), coerce=int)
    deal = forms.TypedChoiceField(label=_("Deal"), coerce=int)
    kind = forms.ChoiceField(label=_("Ruling"), choices=DealRuling.Kind.choices)
    seat = forms.TypedChoiceField(label=_("Seat"), coerce=int, required=False, empty_value=None)
    reason = forms.CharField(label=_("Reason"), max_length=300)
    seen = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, number: int, tables: list[tuple[int, int, int, int]], data=None, *, seen=""):
        super().__init__(data, prefix=f"ruling{number}", initial={"seen": seen})
        self.number = number
        self.fields["table"].choices = [
            (pk, _("Table %(number)s") % {"number": table_number})
            for pk, table_number, _seats, _deals in tables
        ]
        self.fields["deal"].choices = [
            (deal, deal) for deal in range(1, max((t[3] for t in tables), default=0) + 1)
        ]
        self.fields["seat"].choices = [("", _("— the whole table"))] + [
            (seat, seat + 1) for seat in range(max((t[2] for t in tables), default=0))
        ]


# -- a typed sheet --------------------------------------------------------------------------


class OfficialForm(forms.Form):
    """A member named a director or a scorer of the tournament: any active account may be
    chosen (one with a role already changes it); those without one are offered."""

    account = forms.ModelChoiceField(
        get_user_model().objects.filter(is_active=True),
        label=_("Member"),
        error_messages={
            "required": _("Choose a member."),
            "invalid_choice": _("That member is not in the club's list."),
        },
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=Official.Role.choices,
        initial=Official.Role.SCORER,
        error_messages={"invalid_choice": _("Choose director or scorer.")},
    )

    def __init__(self, tournament, data=None):
        super().__init__(data, prefix="official")
        self.fields["account"].widget.choices = [("", "—")] + [
            (account.pk, account.get_username()) for account in candidates(tournament)
        ]


class RowInputError(Refusal):
    """What was typed on row ``row`` (from 1) cannot be a row: ``message`` (marked for
    translation) and ``params``."""

    def __init__(self, row: int, message: str, **params):
        super().__init__(message, **params)
        self.row = row


@dataclass
class Cell:
    name: str  # the input's name
    value: str  # as typed (or as saved)
    kind: str
    choices: list  # [(value, label)] for a select; [] for a number
    label: str  # the field's label (marked for translation)
    head: str = ""  # the column's own head: a seat's name, a place
    none_label: str = ""


@dataclass
class Line:
    number: int
    cells: list[Cell]
    error: str | None = None


def input_names(spec: dict, number: int, seats: int) -> list[str]:
    base = f"r{number}-{spec['key']}"
    if spec["kind"] == "per_seat":
        return [f"{base}-{seat}" for seat in range(seats)]
    if spec["kind"] == "seats":
        return [f"{base}-{k}" for k in range(spec["count"])]
    return [base]


def saved_values(spec: dict, row: dict | None, seats: int) -> list[str]:
    """A saved row's value for a field, as its inputs show it."""
    width = {"per_seat": seats, "seats": spec.get("count", 1)}.get(spec["kind"], 1)
    if row is None or spec["key"] not in row:
        return [""] * width
    value = row[spec["key"]]
    if isinstance(value, list):
        return [str(item) for item in value][:width] + [""] * (width - len(value))
    return ["" if value is None else str(value)]


def whole(text: str, row: int) -> int:
    number = whole_number(text)
    if number is None:
        raise RowInputError(
            row, gettext_noop("“%(value)s” is not a whole number."), value=text.strip()
        )
    if abs(number) > MOST_FIGURE:
        raise RowInputError(
            row,
            gettext_noop("“%(value)s” is beyond any score: at most %(most)s either way."),
            value=text.strip(),
            most=MOST_FIGURE,
        )
    return number


class SheetForm:
    """A table's sheet typed in: one line of inputs per deal, the columns from the game's
    ``row_layout``. Shows ``layout.length`` lines (or more, when more were saved or posted,
    or ``more`` asks for one more)."""

    def __init__(self, layout: Layout, *, data=None, saved: list[dict] | None = None):
        self.layout = layout
        self.data = data
        saved = saved or []
        count = max(layout.length, len(saved))
        if data is not None:
            try:
                count = max(count, min(int(data.get("rows", 0)), MOST_ROWS))
            except ValueError:
                pass
            if data.get("more"):
                count = min(count + 1, MOST_ROWS)
        self.count = count
        self.saved = saved

    def raw(self, spec: dict, number: int) -> list[str]:
        seats = len(self.layout.names)
        if self.data is not None:
            return [self.data.get(name, "") for name in input_names(spec, number, seats)]
        row = self.saved[number - 1] if number <= len(self.saved) else None
        return saved_values(spec, row, seats)

    def lines(self, error_row: int | None = None, error: str | None = None) -> list[Line]:
        seats = len(self.layout.names)
        lines = []
        for number in range(1, self.count + 1):
            cells = []
            for spec in self.layout.fields:
                choices = self.choices(spec)
                names = input_names(spec, number, seats)
                heads = sub_heads(spec, self.layout.names) or [""] * len(names)
                for name, value, head in zip(names, self.raw(spec, number), heads, strict=True):
                    cells.append(
                        Cell(
                            name,
                            value.strip(),
                            spec["kind"],
                            choices,
                            spec["label"],
                            head,
                            spec.get("none_label", ""),
                        )
                    )
            lines.append(Line(number, cells, error if number == error_row else None))
        return lines

    def choices(self, spec: dict) -> list:
        if spec["kind"] == "choice":
            return [(str(value), label) for value, label in spec["choices"]]
        if spec["kind"] in ("seats", "seat_or_none"):  # picked by the number the paper holds
            return [
                (str(seat), f"{seat + 1} · {name}") for seat, name in enumerate(self.layout.names)
            ]
        return []

    def rows(self) -> list[dict]:
        """The filled lines as the game's rows, trailing blank lines left out;
        RowInputError at the first line that cannot be a row."""
        seats = len(self.layout.names)
        typed = [
            [self.raw(spec, number) for spec in self.layout.fields]
            for number in range(1, self.count + 1)
        ]
        filled = [any(value.strip() for values in line for value in values) for line in typed]
        last = max((n for n, full in enumerate(filled, start=1) if full), default=0)
        rows = []
        for number in range(1, last + 1):
            if not filled[number - 1]:
                raise RowInputError(
                    number, gettext_noop("This row is empty, but a later row is filled in.")
                )
            row = {}
            for spec, values in zip(self.layout.fields, typed[number - 1], strict=True):
                row[spec["key"]] = self.read(spec, values, number, seats)
            rows.append(row)
        return rows

    def read(self, spec: dict, values: list[str], number: int, seats: int):
        kind = spec["kind"]
        if kind == "seat_or_none":
            return whole(values[0], number) if values[0].strip() else None
        if not all(value.strip() for value in values):
            raise RowInputError(number, gettext_noop("Fill in every column of the row."))
        numbers = [whole(value, number) for value in values]
        if kind == "choice":
            return numbers[0]
        return numbers
