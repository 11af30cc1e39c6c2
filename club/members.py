"""Every write of the members' pages: an organiser invites a member, links or unlinks an
account and a club player, sets a new password, gives roles; a member changes his own
password and his name. Each runs in one transaction with its audit entry; a refusal is a
``ServiceError`` and changes nothing.

A password is never written anywhere but as Django's hash: not in the audit entry, not in a
log, not in the session. A new one (an invitation's, a reset's) is returned to the view,
which shows it on that one answer only.
"""

import secrets

from axes.utils import reset as reset_sign_in_attempts
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop
from django.views.decorators.debug import sensitive_variables

from . import names, roles
from .models import AuditEntry, Player
from .services import Forbidden, Refused, add_player, existing_player

ROLES = roles.LABELS
USERNAME_LENGTH = 150
NAME_LENGTH = Player._meta.get_field("name").max_length
# Read out or copied by hand at the club: no 0/o, 1/l/i to mix up. 12 of these 31 signs are
# some 59 bits, against an online guesser that django-axes stops after five tries.
PASSWORD_SIGNS = "abcdefghjkmnpqrstuvwxyz23456789"


@sensitive_variables("password")
def new_password() -> str:
    """Three groups of four signs, such as ``k7mq-x3pa-9hrt``."""
    return "-".join("".join(secrets.choice(PASSWORD_SIGNS) for _ in range(4)) for _ in range(3))


def role_labels(names) -> list[str]:
    names = set(names)
    return [str(ROLES[name]) for name in ROLES if name in names]


def player_of(account):
    return Player.objects.filter(user=account).first()


def audit(by, verb: str, **data) -> None:
    AuditEntry.objects.create(user=by, verb=verb, data=data)


# -- names --------------------------------------------------------------------------------


def clean_username(username: str) -> str:
    username = get_user_model().normalize_username(username.strip())
    if not username:
        raise Refused(gettext_noop("A member needs a user name."))
    if not username.isprintable():
        raise Refused(gettext_noop("A user name may hold only printable text."))
    if len(username) > USERNAME_LENGTH:
        raise Refused(
            gettext_noop("A user name may be at most %(count)s characters long."),
            count=USERNAME_LENGTH,
        )
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise Refused(
            gettext_noop(
                "A user name may hold only letters, digits and the signs @ . + - _ (no spaces)."
            )
        ) from None
    # "Anna" and "anna" would be two accounts to Django: one is enough for the club.
    taken = {
        name.casefold() for name in get_user_model().objects.values_list("username", flat=True)
    }
    if username.casefold() in taken:
        raise Refused(gettext_noop("The user name %(username)s is taken."), username=username)
    return username


def clean_name(name: str) -> str:
    """A club player's name, as ``add_player`` takes it (``club.names.normal``)."""
    name = names.normal(name)
    if not name:
        raise Refused(gettext_noop("A player needs a name."))
    if not name.isprintable():
        raise Refused(gettext_noop("A name may hold only printable text."))
    if len(name) > NAME_LENGTH:
        raise Refused(
            gettext_noop("A name may be at most %(count)s characters long."), count=NAME_LENGTH
        )
    return name


def clean_roles(names) -> list[str]:
    names = sorted(set(names))
    unknown = [name for name in names if name not in ROLES]
    if unknown:
        raise Refused(gettext_noop("%(value)s is not a role of the club."), value=unknown[0])
    return names


def organiser_only(by) -> None:
    """The members are managed by the club's organisers alone."""
    if by is None or not roles.is_organiser(by):
        raise Forbidden(gettext_noop("Only the club's organisers may manage its members."))


def _free(player: Player) -> Player:
    """The player, locked, if he has no account yet."""
    locked = (
        Player.objects.select_for_update(of=("self",))  # not the outer-joined user
        .select_related("user")
        .get(pk=player.pk)
    )
    if locked.user_id is not None:
        raise Refused(
            gettext_noop("%(name)s already has an account (%(username)s)."),
            name=locked.name,
            username=locked.user.get_username(),
        )
    return locked


# -- the organiser's ----------------------------------------------------------------------


@sensitive_variables("password")
def invite(*, username: str, player, roles: list[str], by):
    """A new account for a club player (a ``Player`` without an account, or the name of a
    new one; the same name in any case is the same player), in the given roles.

    Returns the account and its password, generated here: the caller shows it once."""
    organiser_only(by)
    username = clean_username(username)
    roles = clean_roles(roles)
    if not isinstance(player, Player):
        clean_name(player)
    password = new_password()
    with transaction.atomic():
        if not isinstance(player, Player):
            player = add_player(name=player, by=by)
        player = _free(player)
        try:
            with transaction.atomic():
                account = get_user_model().objects.create_user(username, password=password)
        except IntegrityError:  # taken a moment ago
            raise Refused(
                gettext_noop("The user name %(username)s is taken."), username=username
            ) from None
        account.groups.set(Group.objects.filter(name__in=roles))
        player.user = account
        player.save(update_fields=["user"])
        audit(
            by,
            "member.invite",
            account=account.pk,
            username=username,
            player=player.pk,
            name=player.name,
            roles=roles,
        )
    return account, password


def link(*, account, player: Player, by) -> Player:
    """The account becomes this club player's: one player per account, one account per
    player."""
    organiser_only(by)
    with transaction.atomic():
        player = _free(player)
        current = player_of(account)
        if current is not None:
            raise Refused(
                gettext_noop("%(username)s is already linked to %(name)s."),
                username=account.get_username(),
                name=current.name,
            )
        player.user = account
        player.save(update_fields=["user"])
        audit(
            by,
            "member.link",
            account=account.pk,
            username=account.get_username(),
            player=player.pk,
            name=player.name,
        )
    return player


def unlink(*, account, by) -> Player:
    """The account is no longer a club player's; the player and his games stay."""
    organiser_only(by)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(user=account).first()
        if player is None:
            raise Refused(
                gettext_noop("%(username)s is not linked to a club player."),
                username=account.get_username(),
            )
        player.user = None
        player.save(update_fields=["user"])
        audit(
            by,
            "member.unlink",
            account=account.pk,
            username=account.get_username(),
            player=player.pk,
            name=player.name,
        )
    return player


@sensitive_variables("password")
def reset_password(*, account, by) -> str:
    """A new generated password for the account, returned to be shown once; his sessions
    elsewhere end, and a lock-out for wrong passwords is lifted."""
    organiser_only(by)
    if account.pk == by.pk:
        raise Refused(gettext_noop("Change your own password on your account page."))
    if (account.is_staff or account.is_superuser) and not by.is_superuser:
        # Or an organiser could take over an account that opens the admin.
        raise Refused(
            gettext_noop("Only a superuser may set a new password for %(username)s."),
            username=account.get_username(),
        )
    password = new_password()
    with transaction.atomic():
        account.set_password(password)
        account.save(update_fields=["password"])
        reset_sign_in_attempts(username=account.get_username())
        audit(by, "member.reset", account=account.pk, username=account.get_username())
    return password


def set_roles(*, account, roles: list[str], by) -> list[str]:
    """The account's club roles, in place of those it had."""
    organiser_only(by)
    roles = clean_roles(roles)
    if account.pk == by.pk:
        raise Refused(gettext_noop("Another organiser changes your own roles."))
    if (account.is_staff or account.is_superuser) and not by.is_superuser:
        raise Refused(
            gettext_noop("Only a superuser may change the roles of %(username)s."),
            username=account.get_username(),
        )
    with transaction.atomic():
        was = sorted(account.groups.filter(name__in=ROLES).values_list("name", flat=True))
        if was == roles:
            return roles
        kept = account.groups.exclude(name__in=ROLES)
        account.groups.set([*kept, *Group.objects.filter(name__in=roles)])
        audit(
            by,
            "member.roles",
            account=account.pk,
            username=account.get_username(),
            was=was,
            roles=roles,
        )
    return roles


# -- every member's own -------------------------------------------------------------------


@sensitive_variables("password")
def change_password(*, account, password: str) -> None:
    """The member's own new password (checked by Django's password change form)."""
    with transaction.atomic():
        account.set_password(password)
        account.save(update_fields=["password"])
        audit(account, "member.password", account=account.pk, username=account.get_username())


def rename(*, account, name: str) -> Player:
    """The member's name at the club: his club player's, unique as the club's names are."""
    name = clean_name(name)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(user=account).first()
        if player is None:
            raise Refused(
                gettext_noop(
                    "Your account is not linked to a club player: an organiser can link it."
                )
            )
        if name == player.name:
            return player
        if existing_player(name, other_than=player) is not None:
            raise Refused(gettext_noop("The club already has a player of that name."))
        was = player.name
        player.name = name
        try:
            with transaction.atomic():
                player.save(update_fields=["name", "key"])
        except IntegrityError:  # taken a moment ago
            raise Refused(gettext_noop("The club already has a player of that name.")) from None
        audit(account, "player.rename", player=player.pk, was=was, name=name)
    return player
