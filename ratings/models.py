"""The club's ratings as stored: derived from the results (``ratings.services``), every row
can be rebuilt from them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player


class Ladder(models.Model):
    """A game's ladder: its row is locked while the game's ratings are brought in line with
    the results (ratings.services), so that two writers re-rate one after the other."""

    game = models.CharField(_("game"), max_length=16, unique=True)

    class Meta:
        db_table = "club_ladder"  # made by the club app, which held it first
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")

    def __str__(self):
        return self.game


class RatedMatch(models.Model):
    """A match rated in its game's ladder. Derived from the results (ratings.services): every
    rated match can be rebuilt from them, in ``order``. Matches are only ever written in
    that order after the game's earlier ones (a rebuild, a re-rating from a point on, under
    the ladder's lock), so within a game their ids follow it too."""

    game = models.CharField(_("game"), max_length=16)
    # the source's stable name of it: "tournament:12:340" (a tournament's table), "table:7:2"
    key = models.CharField(_("match"), max_length=64)
    # the rating order: when it was completed (UTC, fixed width), then the source's tie-break
    order = models.CharField(_("order"), max_length=96)
    completed_at = models.DateTimeField(_("completed"))

    class Meta:
        db_table = "club_ratedmatch"  # made by the club app, which held it first
        ordering = ["game", "order"]
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="rated_match_once"),
            models.UniqueConstraint(fields=["game", "order"], name="rated_match_order_once"),
        ]

    def __str__(self):
        return f"{self.game} {self.key}"


class RatingStep(models.Model):
    """One player's part in a rated match: his figure and rank there, his (μ, σ) before and
    after it."""

    match = models.ForeignKey(
        RatedMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="steps"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="rating_steps"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.IntegerField(_("points"))  # what ranked him: game points, a total
    rank = models.PositiveSmallIntegerField(_("place"))  # 1 is first; equal figures share it
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        db_table = "club_ratingstep"  # made by the club app, which held it first
        ordering = ["match", "seat"]
        verbose_name = _("rating step")
        verbose_name_plural = _("rating steps")
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_step_once"),
        ]
        indexes = [models.Index(fields=["player", "match"])]

    def __str__(self):
        return f"{self.match} {self.player}"


class Rating(models.Model):
    """A player's rating at a game after his latest rated match (ratings.services)."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(_("game"), max_length=16)
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    matches = models.PositiveIntegerField(_("rated matches"))

    class Meta:
        db_table = "club_rating"  # made by the club app, which held it first
        ordering = ["game", "player"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_once"),
        ]

    def __str__(self):
        return f"{self.player} {self.game}"
