"""The seasons' forms: they parse what was typed; the services decide."""

import secrets

from django import forms
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from core.fields import WholeNumberField
from games import registry

from ..models import Season, Tournament
from .standings import DEFAULT_PLACE_POINTS, MOST_PLACE_POINTS, MOST_PLACES

# Every place's figure, its comma and a space: what a points table is at its longest.
POINTS_TEXT = MOST_PLACES * (len(str(MOST_PLACE_POINTS)) + 2)


def model_label(name: str):
    return capfirst(Season._meta.get_field(name).verbose_name)


class PlacePointsField(forms.CharField):
    """A points table typed as whole numbers separated by commas ("10, 8, 6"), each read
    as the club's number fields read a figure: ASCII digits only, from 0 to the most a
    place may score."""

    def __init__(self, **kwargs):
        super().__init__(max_length=POINTS_TEXT, **kwargs)
        self.figure = WholeNumberField(min_value=0, max_value=MOST_PLACE_POINTS)

    def clean(self, value):
        text = super().clean(value)
        parts = [part.strip() for part in text.split(",")]
        if parts and not parts[-1]:  # "10, 8, 6," as typed in a hurry
            parts.pop()
        if len(parts) > MOST_PLACES:
            raise forms.ValidationError(
                _("At most %(count)s places have points."), params={"count": MOST_PLACES}
            )
        figures = []
        for place, part in enumerate(parts, start=1):
            if not part:
                raise forms.ValidationError(
                    _("Place %(place)s has no points: write a whole number between the commas."),
                    params={"place": place},
                )
            try:
                figures.append(self.figure.clean(part))
            except forms.ValidationError:
                raise forms.ValidationError(
                    _(
                        "Place %(place)s: “%(value)s” is not a whole number from 0 to %(most)s "
                        "in the digits 0 to 9."
                    ),
                    params={"place": place, "value": part[:20], "most": MOST_PLACE_POINTS},
                ) from None
        return figures


def points_text(points) -> str:
    return ", ".join(str(figure) for figure in points)


class SeasonForm(forms.Form):
    """A season's name, scoring and points table; a new season's game too."""

    name = forms.CharField(label=_("Name of the season"), max_length=200)
    game = forms.ChoiceField(label=model_label("game"))
    scoring = forms.ChoiceField(
        label=model_label("scoring"),
        choices=Season.Scoring.choices,
        initial=Season.Scoring.PLACES,
        widget=forms.RadioSelect,
    )
    place_points = PlacePointsField(
        label=model_label("place_points"),
        initial=points_text(DEFAULT_PLACE_POINTS),
        required=False,
        help_text=_(
            "Whole numbers separated by commas, from the first place down; a place beyond "
            "them scores 0. Shared places share their points equally."
        ),
    )
    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    version = WholeNumberField(widget=forms.HiddenInput, required=False, min_value=0)

    def __init__(self, data=None, *, season: Season | None = None):
        initial = None
        if season is not None:
            initial = {
                "name": season.name,
                "scoring": season.scoring,
                "place_points": points_text(season.place_points),
                "version": season.version,
            }
        super().__init__(data, initial=initial, prefix="season")
        self.season = season
        if season is None:
            self.fields["game"].choices = [
                (game.key, game.title) for game in registry.tournament_games()
            ]
            self.fields["token"].initial = secrets.token_urlsafe(16)
            del self.fields["version"]
        else:
            del self.fields["game"], self.fields["token"]
            self.fields["version"].required = True

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("scoring") == Season.Scoring.PLACES and cleaned.get("place_points") == []:
            self.add_error("place_points", _("Scoring by places needs each place's points."))
        return cleaned

    def visible(self):
        return [field for field in self if not field.is_hidden]


class SeasonTournamentForm(forms.Form):
    """A tournament to add to the season or remove from it, and the season's version the
    page showed. Any tournament may be sent: the service says why one may not join."""

    tournament = forms.ModelChoiceField(
        Tournament.objects.all(),
        label=_("Tournament"),
        error_messages={
            "required": _("Choose a tournament."),
            "invalid_choice": _("That tournament is not in the club's list."),
        },
    )
    version = WholeNumberField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, data=None, *, season: Season, offered=None, prefix="add"):
        super().__init__(data, initial={"version": season.version}, prefix=prefix)
        if offered is not None:
            self.fields["tournament"].widget.choices = [("", "—")] + [
                (t.pk, f"{t.name} · {date_format(t.date)}") for t in offered
            ]
