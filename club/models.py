from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from . import names


class Player(models.Model):
    """A member of the club, who may or may not have an account to sign in with."""

    name = models.CharField(_("name"), max_length=60, unique=True)
    # The name case-folded: "анна" and "Анна" are one person (SQLite folds ASCII only).
    key = models.CharField(max_length=60, unique=True, editable=False)
    # What the name looks like (club.names.look): a new name that looks like another
    # player's is refused. Not unique: players named before the check came may share one.
    look = models.TextField(editable=False, db_index=True, default="")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club_player",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "games_player"  # made by the games app, which held it first
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.name = names.normal(self.name)
        self.key, self.look = self.key_of(self.name), names.look(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key", "look"}
        super().save(*args, **kwargs)

    def clean(self):
        from core.wording import refusal_text

        from .services import ServiceError, existing_player

        self.name = names.normal(self.name)
        if self.pk and Player.objects.filter(pk=self.pk, name=self.name).exists():
            return  # his name as it was: another field is edited
        try:
            if existing_player(self.name, other_than=self) is not None:
                raise ValidationError({"name": _("The club already has a player of that name.")})
        except ServiceError as exc:
            raise ValidationError({"name": refusal_text(exc)}) from None

    @staticmethod
    def key_of(name: str) -> str:
        return names.fold(name)


class AuditEntry(models.Model):
    """Who changed what, when: written by every service in the same transaction. An entry
    about a hotseat table or deal points to it (by the model's name: ``club`` imports no
    other app)."""

    class Verb(models.TextChoices):
        PLAYER_ADD = "player.add", _("club player added")
        PLAYER_CHANGE = "player.change", _("club player changed")
        PLAYER_RENAME = "player.rename", _("club player renamed")
        MEMBER_INVITE = "member.invite", _("member invited")
        MEMBER_LINK = "member.link", _("account linked to a player")
        MEMBER_UNLINK = "member.unlink", _("account unlinked from its player")
        MEMBER_RESET = "member.reset", _("password reset")
        MEMBER_PASSWORD = "member.password", _("password changed")
        MEMBER_ROLES = "member.roles", _("member's roles changed")
        TABLE_START = "table.start", _("table started")
        TABLE_RENAME = "table.rename", _("table renamed")
        TABLE_FINISH = "table.finish", _("table finished")
        TABLE_ABANDON = "table.abandon", _("table abandoned")
        SEAT_REISSUE = "seat.reissue", _("seat's link replaced")
        DEAL_START = "deal.start", _("deal dealt")
        DEAL_ACTION = "deal.action", _("move")
        DEAL_REVEAL = "deal.reveal", _("hand shown")
        DEAL_TAKE_BACK = "deal.take_back", _("move taken back")
        DEAL_ROBOT = "deal.robot", _("robot's move")
        TOURNAMENT_CREATE = "tournament.create", _("tournament created")
        TOURNAMENT_IMPORT = "tournament.import", _("tournament imported")
        TOURNAMENT_ENTER = "tournament.enter", _("player entered")
        TOURNAMENT_REMOVE = "tournament.remove", _("entry removed")
        TOURNAMENT_WITHDRAW = "tournament.withdraw", _("player withdrawn")
        TOURNAMENT_WITHDRAW_UNDO = "tournament.withdraw.undo", _("withdrawal undone")
        TOURNAMENT_PLAY_HERE = "tournament.play_here", _("table played here")
        TOURNAMENT_PLAN_ROUND = "tournament.plan_round", _("round added to the plan")
        TOURNAMENT_ADJUST = "tournament.adjust", _("adjustment made")
        TOURNAMENT_ADJUST_CORRECT = "tournament.adjust.correct", _("adjustment corrected")
        TOURNAMENT_ADJUST_REVERT = "tournament.adjust.revert", _("adjustment reverted")
        TOURNAMENT_ROLE_ADD = "tournament.role.add", _("tournament's director or scorer named")
        TOURNAMENT_ROLE_REMOVE = (
            "tournament.role.remove",
            _("tournament's director or scorer removed"),
        )
        TOURNAMENT_RULING = "tournament.ruling", _("ruling made on a deal")
        TOURNAMENT_RULING_WITHDRAW = "tournament.ruling.withdraw", _("ruling on a deal withdrawn")
        ROUND_DRAW = "round.draw", _("round drawn")
        ROUND_SWAP = "round.swap", _("players swapped")
        ROUND_RELEASE = "round.release", _("round released")
        ROUND_CHECK_IN = "round.checkin", _("checked in for a round")
        ROUND_CHECK_OUT = "round.checkout", _("check-in undone")
        ROUND_REDRAW = "round.redraw", _("draft round drawn again")
        SHEET_ENTER = "sheet.enter", _("sheet typed in")
        SHEET_CONFIRM = "sheet.confirm", _("sheet confirmed")
        SHEET_CORRECT = "sheet.correct", _("sheet row corrected")
        SHEET_REVERT = "sheet.revert", _("sheet row reverted")
        SHEET_REPORT = "sheet.report", _("row entered at the table")
        SHEET_REPORT_CHANGE = "sheet.report.change", _("row changed at the table")
        SHEET_REPORT_WITHDRAW = "sheet.report.withdraw", _("row withdrawn at the table")
        SHEET_REPORT_CONFIRM = "sheet.report.confirm", _("row confirmed at the table")
        SEASON_CREATE = "season.create", _("season created")
        SEASON_CHANGE = "season.change", _("season changed")
        SEASON_TOURNAMENT_ADD = "season.tournament.add", _("tournament added to a season")
        SEASON_TOURNAMENT_REMOVE = (
            "season.tournament.remove",
            _("tournament removed from a season"),
        )

    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    verb = models.CharField(_("what"), max_length=32, choices=Verb.choices)
    table = models.ForeignKey(
        "games.Table",
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    deal = models.ForeignKey(
        "games.Deal",
        verbose_name=_("deal"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    data = models.JSONField(_("details"), default=dict)

    class Meta:
        db_table = "games_auditentry"  # made by the games app, which held it first
        ordering = ["-created_at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.get_verb_display()}"
