"""A tournament: its entrants, rounds, the tables of a round with their seats, the sheets'
rows and the byes (docs/rules/tournaments.md). What a table scored and the standings are
read from these (``tournaments.selectors``), never stored beside them."""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from club.models import Player
from core.numbers import signed
from games import registry
from games.models import Table as HotseatTable

from .duplicate.scoring import ADJUSTED_PERCENT, FOULED
from .seasons.standings import DEFAULT_PLACE_POINTS, MATCH_POINTS, PLACES


def default_place_points() -> list[int]:
    return list(DEFAULT_PLACE_POINTS)


class Season(models.Model):
    """Tournaments of one game grouped for standings of their own (``tournaments.seasons``):
    by the points of each place a tournament gives, or by the match points made in each."""

    class Scoring(models.TextChoices):
        PLACES = PLACES, _("by places: each place of a tournament is worth its points")
        MATCH_POINTS = MATCH_POINTS, _("by match points: the sum of those made in each tournament")

    key = models.SlugField(
        _("key"), max_length=80, unique=True, help_text=_("The season's name in addresses.")
    )
    name = models.CharField(_("name"), max_length=200)
    game = models.CharField(_("game"), max_length=16, choices=registry.choices)
    scoring = models.CharField(
        _("scoring"), max_length=16, choices=Scoring.choices, default=Scoring.PLACES
    )
    place_points = models.JSONField(
        _("points for each place"),
        default=default_place_points,
        help_text=_("From the first place down; a place beyond the list scores 0."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # The new-season form it was created from: sent again (a double click), it finds this one.
    form_token = models.CharField(
        _("form"), max_length=64, unique=True, null=True, blank=True, editable=False
    )
    # Counts its changes: a page that showed an older one is stale.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self):
        return self.name


class Tournament(models.Model):
    class Seating(models.TextChoices):
        MIXING = "mixing", _("mixing: as many different opponents as possible")
        SWISS = "swiss", _("Swiss: players of similar standing meet")

    key = models.SlugField(
        _("key"),
        max_length=80,
        unique=True,
        help_text=_("The tournament's name in addresses and commands."),
    )
    # Pages under it redirect to the same pages under the key (tournaments.addresses).
    old_key = models.CharField(
        _("former key"), max_length=80, unique=True, null=True, blank=True, editable=False
    )
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"), default=timezone.localdate)
    game = models.CharField(_("game"), max_length=16, choices=registry.choices)
    options = models.JSONField(_("options"), default=dict)
    game_settings = models.JSONField(
        _("game settings"),
        default=dict,
        blank=True,
        help_text=_("The game's own tournament settings."),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"))
    seating = models.CharField(_("seating"), max_length=8, choices=Seating.choices)
    # It seeds the seating draw and a duplicate tournament's deals (tournaments.duplicate.deals);
    # any other table's deals are shuffled with seeds of their own.
    seed = models.BigIntegerField(_("seed of the draw"))
    bye_points = models.DecimalField(_("bye points"), max_digits=6, decimal_places=2, default=3)
    order = models.JSONField(_("order of the standings"))
    # Chosen with the tournament; the deals follow from ``seed`` (tournaments.duplicate).
    duplicate = models.BooleanField(
        _("duplicate"),
        default=False,
        help_text=_("Every table of a round with as many seats plays the same deals."),
    )
    confirmation = models.BooleanField(
        _("typed sheets need a second scorer"),
        default=False,
        help_text=_("A typed-in sheet counts only once another scorer has confirmed it."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # The new-tournament form it was created from: the form sent again (a double click) finds
    # it rather than making a second tournament.
    form_token = models.CharField(
        _("form"), max_length=64, unique=True, null=True, blank=True, editable=False
    )
    # Counts its changes: a live page compares the one it shows with the one announced.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )

    class Meta:
        ordering = ["-date", "-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name


class Entrant(models.Model):
    """A club player in a tournament, numbered in the order of entry."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entrants"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    number = models.PositiveIntegerField(_("entry"))
    joined_round = models.PositiveSmallIntegerField(
        _("seated from round"), default=1, help_text=_("A late entrant is seated from here.")
    )
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrew after round"),
        null=True,
        blank=True,
        help_text=_("Not seated again; their results stand."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entrant_once"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_once"),
        ]

    def __str__(self):
        return str(self.player)


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    released = models.BooleanField(
        _("released"), default=False, help_text=_("A draft seating may still be changed.")
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
        ]

    def __str__(self):
        return f"{self.tournament} · {self.number}"


class Bye(models.Model):
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="byes"
    )
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="byes"
    )

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="bye_once"),
        ]

    def __str__(self):
        return f"{self.round}: {self.entrant}"


class CheckIn(models.Model):
    """An entrant present for a round not yet released (``tournaments.check_in``): once
    anyone is checked in for a round, only those checked in are seated in it. The round is
    its number: it may not have been drawn yet."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="check_ins"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("checked in by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("checked in at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "round", "at", "pk"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(fields=["entrant", "round"], name="check_in_once"),
        ]
        indexes = [models.Index(fields=["tournament", "round"])]

    def __str__(self):
        return f"{self.entrant} · {self.round}"


def new_entry_key() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


class RoundTable(models.Model):
    """One table of a round: its players in seat order and its sheet, typed in from paper,
    reported row by row by its players through its entry link, or, for a table played here,
    the hotseat table whose deals make its rows."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    hotseat = models.OneToOneField(
        HotseatTable,
        verbose_name=_("played here"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("typed in by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The unguessable part of its entry link (/e/<key>/): whoever holds it reports the rows.
    entry_key = models.CharField(
        _("entry key"), max_length=32, unique=True, default=new_entry_key, editable=False
    )
    # Its players report its rows (each confirmed by another of them): it counts complete.
    reported = models.BooleanField(_("reported by its players"), default=False, editable=False)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table of a round")
        verbose_name_plural = _("tables of a round")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_once"),
        ]

    def __str__(self):
        return f"{self.round} · {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(
        RoundTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="seats"
    )

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="table_seat_once"),
            models.UniqueConstraint(fields=["table", "entrant"], name="table_entrant_once"),
        ]

    def __str__(self):
        return f"{self.position}: {self.entrant}"


class SheetRow(models.Model):
    """One deal's row of a table's sheet, as the game's tournament parts checked it: typed
    in, reported by the table's players through its entry link, or written from a hotseat
    deal's result in the transaction of its last action."""

    table = models.ForeignKey(
        RoundTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="rows"
    )
    index = models.PositiveSmallIntegerField(_("row"))
    data = models.JSONField(_("row"))
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)
    # A row its players reported: the seats (from 0) of the player who entered it on his
    # phone and of the one who confirmed it on his (a correction changes neither).
    entered_by_seat = models.PositiveSmallIntegerField(
        _("entered by seat"), null=True, blank=True, editable=False
    )
    confirmed_by_seat = models.PositiveSmallIntegerField(
        _("confirmed by seat"), null=True, blank=True, editable=False
    )
    history = HistoricalRecords(  # who changed it, when, why, and what it was
        history_change_reason_field=models.TextField(null=True),
        excluded_fields=["entered_by_seat", "confirmed_by_seat"],
    )

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("sheet row")
        verbose_name_plural = _("sheet rows")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="sheet_row_once"),
        ]

    def __str__(self):
        return f"{self.table} · {self.index}"


class ReportedRow(models.Model):
    """The row a player of a table entered through its entry link, until another player of
    the table confirms it (it then becomes the sheet's row ``index``): at most one a table."""

    table = models.OneToOneField(
        RoundTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="reported_row"
    )
    index = models.PositiveSmallIntegerField(_("row"))
    data = models.JSONField(_("row"))
    seat = models.PositiveSmallIntegerField(_("entered by seat"))
    # Counts its changes: a page that showed an older one is stale.
    revision = models.PositiveIntegerField(_("version"), default=1, editable=False)
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)

    class Meta:
        verbose_name = _("row awaiting confirmation")
        verbose_name_plural = _("rows awaiting confirmation")

    def __str__(self):
        return f"{self.table} · {self.index}"


class Adjustment(models.Model):
    """A director's penalty or correction: game points added to (or taken from) one
    entrant's total for one round, with the reason."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="adjustments"
    )
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="adjustments"
    )
    points = models.IntegerField(_("game points"))
    reason = models.CharField(_("reason"), max_length=300)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    history = HistoricalRecords(  # who changed it, when, why, and what it was
        history_change_reason_field=models.TextField(null=True)
    )

    class Meta:
        ordering = ["round", "pk"]
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")

    def __str__(self):
        return f"{self.entrant} {signed(self.points)}: {self.reason}"


class DealRuling(models.Model):
    """A director's ruling on one deal of a duplicate round's table: the table played it
    with wrong cards (fouled: its result is left out of the comparisons), or one seat is
    given an adjusted result (average plus, average, average minus)."""

    class Kind(models.TextChoices):
        FOULED = FOULED, _("fouled: played with wrong cards")
        PLUS = "plus", _("average plus (60 %)")
        AVERAGE = "average", _("average (50 %)")
        MINUS = "minus", _("average minus (40 %)")

    table = models.ForeignKey(
        RoundTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="rulings"
    )
    deal = models.PositiveSmallIntegerField(_("deal"))  # from 1
    # from 0, as TableSeat.position; None: the whole table (a fouled deal)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    kind = models.CharField(_("ruling"), max_length=8, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=300)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    history = HistoricalRecords(  # who ruled or withdrew it, when and why
        history_change_reason_field=models.TextField(null=True)
    )

    class Meta:
        ordering = ["table", "deal", "seat", "pk"]
        verbose_name = _("ruling on a deal")
        verbose_name_plural = _("rulings on deals")
        constraints = [
            # a NULL seat is distinct from another in a plain unique constraint
            models.UniqueConstraint(
                fields=["table", "deal", "seat"],
                condition=models.Q(seat__isnull=False),
                name="deal_ruling_seat_once",
            ),
            models.UniqueConstraint(
                fields=["table", "deal"],
                condition=models.Q(seat__isnull=True),
                name="deal_ruling_table_once",
            ),
            models.CheckConstraint(
                condition=models.Q(kind=FOULED, seat__isnull=True)
                | models.Q(kind__in=list(ADJUSTED_PERCENT), seat__isnull=False),
                name="deal_ruling_fouled_table_adjusted_seat",
            ),
        ]

    def __str__(self):
        return f"{self.table} · {self.deal}: {self.kind}"


class Official(models.Model):
    """A member who directs or scores one tournament (``tournaments.roles``): its creator is
    its first director; a director of it names the others."""

    class Role(models.TextChoices):
        DIRECTOR = "director", _("director")
        SCORER = "scorer", _("scorer")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="officials"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)

    class Meta:
        ordering = ["tournament", "role", "user__username"]
        verbose_name = _("tournament's director or scorer")
        verbose_name_plural = _("tournaments' directors and scorers")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="official_once"),
        ]

    def __str__(self):
        return f"{self.tournament} · {self.user} ({self.get_role_display()})"
