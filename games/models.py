import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player

from . import hotseat, registry, robot_seats


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Table(models.Model):
    """A game table: the players seated in order round it, the options, its deals.

    ``state``: a table is played until its host (or a director) finishes it, once no deal is
    in progress, or abandons it, leaving a deal in progress as its log has it; either way it
    then takes no more actions. ``version`` counts the changes of its name and state, so that
    a page that shows version n may only make change n (as ``Deal.version`` for its log).
    """

    class State(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    token = models.CharField(
        _("address key"),
        max_length=32,
        unique=True,
        default=new_token,
        editable=False,
        help_text=_("The unguessable part of its address."),
    )
    # A second address that only shows the table: whoever has it may watch, never play.
    watch_key = models.CharField(
        _("spectators' key"),
        max_length=32,
        unique=True,
        default=new_token,
        editable=False,
        help_text=_("The unguessable part of the spectators' address."),
    )
    game = models.CharField(_("game"), max_length=16, choices=registry.choices)
    options = models.JSONField(_("options"), default=dict)
    players = models.ManyToManyField(Player, through="Seat", related_name="tables")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        on_delete=models.PROTECT,
        related_name="tables_started",
    )
    created_at = models.DateTimeField(_("started"), auto_now_add=True)
    name = models.CharField(
        _("name"), max_length=80, blank=True, help_text=_("Blank: the game and its players.")
    )
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.PLAYING
    )
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("Changes of its name or state.")
    )
    # Deals fixed in advance, the same at other tables: deal k is shuffled with the k-th seed
    # and dealt by seat k − 1 (counting round the table); later deals as any table's.
    deal_seeds = models.JSONField(_("seeds of its fixed deals"), default=list, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        return f"{self.get_game_display()} #{self.pk}"

    def get_absolute_url(self):
        from django.urls import reverse

        return reverse("table", args=[self.token])

    def get_watch_url(self):
        from django.urls import reverse

        return reverse("watch", args=[self.watch_key])

    @property
    def is_open(self) -> bool:
        """Still played: neither finished nor abandoned."""
        return self.state == self.State.PLAYING

    @property
    def shown_name(self) -> str:
        """Its name, or by default its game and its players (robots too) in seat order (from
        its seats, prefetched where tables are listed)."""
        if self.name:
            return self.name
        players = ", ".join(seat.name for seat in self.seats.all())
        return f"{registry.game(self.game).title}: {players}"


class Seat(models.Model):
    """A place at a table: a club player's, or a robot's at a strength (never both)."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
    )
    robot = models.CharField(
        _("robot"),
        max_length=16,
        blank=True,
        default="",
        choices=robot_seats.CHOICES,
        help_text=_("The strength of the robot that plays this seat."),
    )
    # The seat's own address (/s/<key>/): whoever has it plays this seat, and only this seat.
    key = models.CharField(
        _("seat's key"),
        max_length=32,
        unique=True,
        default=new_token,
        editable=False,
        help_text=_("The unguessable part of the seat's own address."),
    )
    device = models.BooleanField(
        _("on their own device"),
        default=False,
        help_text=_("Played on the player's own device rather than at the shared screen."),
    )
    # when the seat's page last told its socket it was open: who is connected, across processes
    seen_at = models.DateTimeField(_("last seen"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_once"),
            models.CheckConstraint(
                condition=(
                    models.Q(player__isnull=False, robot="")
                    | models.Q(player__isnull=True, robot__in=list(robot_seats.LABELS))
                ),
                name="seat_player_or_robot",
            ),
        ]

    def __str__(self):  # seats are numbered from 1 wherever a person reads them
        return f"{self.position + 1}: {self.name}"

    def get_absolute_url(self):
        from django.urls import reverse

        return reverse("seat", args=[self.key])

    @property
    def name(self) -> str:
        """What the table calls this seat: the player's name, or the robot's."""
        return self.player.name if self.player_id else robot_seats.name(self.position, self.robot)


class Cycle(models.Model):
    """Deals scored together, as the game's rules say (``Rules.cycle``): a cycle of a number
    of deals, or a match of an agreed number of deals or to a target score."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="cycles"
    )
    number = models.PositiveIntegerField(_("cycle"))
    length = models.PositiveSmallIntegerField(_("deals"), null=True, blank=True)
    target = models.PositiveSmallIntegerField(_("target score"), null=True, blank=True)
    created_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("cycle")
        verbose_name_plural = _("cycles")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="cycle_number_once"),
        ]

    def __str__(self):
        return f"{self.table} · {self.number}"

    def is_complete(self, results: list[dict]) -> bool:
        """Over once its number of deals is played, or a total has reached the target."""
        if self.length is not None and len(results) >= self.length:
            return True
        if self.target is not None and results:
            totals = [sum(scores) for scores in zip(*(r["scores"] for r in results), strict=True)]
            return max(totals) >= self.target
        return False


class Deal(models.Model):
    """One deal: what was dealt and its append-only event log.

    ``dealt`` is the record's part that the game's ``Rules.deal`` gives out (the hands, and
    anything else the game deals). ``snapshot`` (the hotseat after the last event: the engine
    state, who has the screen) and ``is_over``/``result`` are caches of the log; ``version``
    is the number of events, so a page that shows version n may only write event n.
    """

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="deals"
    )
    cycle = models.ForeignKey(
        Cycle,
        verbose_name=_("cycle"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="deals",
    )
    number = models.PositiveIntegerField(_("deal"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    seed = models.BigIntegerField(_("seed"))
    dealt = models.JSONField(_("cards dealt"), help_text=_("As the deal's record writes it."))
    snapshot = models.JSONField(_("snapshot"))
    version = models.PositiveIntegerField(_("version"), default=0)
    is_over = models.BooleanField(_("over"), default=False)
    result = models.JSONField(_("result"), null=True, blank=True)
    # When a robot may be the seat to act, the time its turn is due (games.robot_turns):
    # the server takes it then, whatever page is open, and after a restart.
    robot_due_at = models.DateTimeField(
        _("robot's turn due"), null=True, blank=True, editable=False, db_index=True
    )
    created_at = models.DateTimeField(_("started"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last change"), auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="deal_number_once"),
        ]

    def __str__(self):
        return f"{self.table} · {self.number}"


class AppendOnly(Exception):
    pass


class DealEvent(models.Model):
    """One entry of a deal's log. Never changed or deleted: a take-back is an entry too."""

    class Kind(models.TextChoices):
        ACTION = hotseat.ACTION, _("action")
        TAKE_BACK = hotseat.TAKE_BACK, _("take-back")
        REVEAL = hotseat.REVEAL, _("hand shown")
        ROBOT = hotseat.ROBOT, _("robot's action")

    deal = models.ForeignKey(
        Deal, verbose_name=_("deal"), on_delete=models.CASCADE, related_name="events"
    )
    index = models.PositiveIntegerField(_("index"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(_("seat"))
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        ordering = ["deal", "index"]
        verbose_name = _("deal event")
        verbose_name_plural = _("deal events")
        constraints = [
            # The version check's backstop: two writers of the same turn cannot both land.
            models.UniqueConstraint(fields=["deal", "index"], name="event_index_once"),
        ]

    def __str__(self):
        return f"{self.deal} #{self.index} {self.get_kind_display()}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly("deal events are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("deal events are never deleted")
