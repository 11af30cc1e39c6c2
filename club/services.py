"""The club's own writes (its players), and the refusals every service raises: a
``ServiceError`` is shown on the page with its ``status``, and the write changed nothing.
Each write runs in one transaction with its audit entry."""

from django.db import transaction
from django.utils.translation import gettext_noop

from .models import AuditEntry, Player
from .refusals import Refusal


class ServiceError(Refusal):
    """A refusal to show on the page: ``message`` is translatable, ``params`` fill it."""


class Stale(ServiceError):
    """The page showed what has changed since (another's write, a second click)."""

    status = 409


class Refused(ServiceError):
    pass


def add_player(*, name: str, user=None, by=None) -> Player:
    """The club player of that name (the same name in any case is the same person)."""
    name = " ".join(name.split())
    if not name:
        raise Refused(gettext_noop("A player needs a name."))
    if not name.isprintable():  # a NUL byte, say: PostgreSQL cannot store it
        raise Refused(gettext_noop("A name may hold only printable text."))
    with transaction.atomic():
        existing = Player.objects.filter(key=Player.key_of(name)).first()
        if existing:
            return existing
        player = Player.objects.create(name=name, user=user)
        AuditEntry.objects.create(
            user=by, verb="player.add", data={"player": player.pk, "name": name}
        )
    return player


def save_player(*, player: Player, by=None) -> Player:
    """An edit of a player from the admin."""
    with transaction.atomic():
        adding = player._state.adding
        player.save()
        AuditEntry.objects.create(
            user=by,
            verb="player.add" if adding else "player.change",
            data={"player": player.pk, "name": player.name},
        )
    return player
