"""The club's own writes (its players), and the refusals every service raises: a
``ServiceError`` is shown on the page with its ``status``, and the write changed nothing.
Each write runs in one transaction with its audit entry."""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_noop

from core.refusals import Refusal

from . import names
from .models import AuditEntry, Player


class ServiceError(Refusal):
    """A refusal to show on the page: ``message`` is translatable, ``params`` fill it."""


class Stale(ServiceError):
    """The page showed what has changed since (another's write, a second click)."""

    status = 409


class Refused(ServiceError):
    pass


class Forbidden(ServiceError):
    """The member's roles do not let him make this change."""

    status = 403


def existing_player(name: str, *, other_than: Player | None = None) -> Player | None:
    """The club player of that name (the same name in any case or Unicode form is the same
    person), or None for a new name. Refused if the name looks like another player's
    (``club.names.look``): "Аlice" with a Cyrillic А would pass for Alice."""
    key, look = Player.key_of(name), names.look(name)
    found = Player.objects.filter(Q(key=key) | Q(look=look)).order_by("pk")
    if other_than is not None:
        found = found.exclude(pk=other_than.pk)
    found = list(found)
    for player in found:
        # key_of again: a player named before names were kept in NFKC has an older key
        if Player.key_of(player.name) == key:
            return player
    if found:
        raise Refused(
            gettext_noop(
                "%(name)s looks like the name of the club player %(player)s: choose a name "
                "that tells them apart."
            ),
            name=names.normal(name),
            player=found[0].name,
        )
    return None


def add_player(*, name: str, user=None, by=None) -> Player:
    """The club player of that name (the same name in any case or Unicode form is the same
    person); a name that looks like another player's is refused."""
    name = names.normal(name)
    if not name:
        raise Refused(gettext_noop("A player needs a name."))
    if not name.isprintable():  # a NUL byte, say: PostgreSQL cannot store it
        raise Refused(gettext_noop("A name may hold only printable text."))
    with transaction.atomic():
        existing = existing_player(name)
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
