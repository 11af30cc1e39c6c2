"""A tournament created or imported, and what every write of the tournaments app shares:
one transaction, an audit entry (``audit``), and the tournament's listeners told after
commit (``notify_on_commit``), as in ``games.services``; a refusal is a ``TournamentError``,
a ``club.services.ServiceError``. Each domain's writes are in its own ``services.py``."""

import datetime
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext_noop

from club.models import AuditEntry
from club.services import ServiceError, add_player
from core.notices import send_on_commit
from games.models import Table as HotseatTable
from games.selectors import deal_stamp
from games.services import group_name as table_group
from games.services import notify_spectators_on_commit, refused

from .addresses import key_lookup, readable_key
from .document import (
    Document,
    DuplicateRefused,
    NotADocument,
    OptionsRefused,
    Unplayable,
    read_settings,
)
from .models import (
    Bye,
    DealRuling,
    Entrant,
    Round,
    RoundTable,
    SheetRow,
    TableSeat,
    Tournament,
)
from .roles import first_director
from .signals import results_changed


def group_name(tournament: Tournament) -> str:
    return f"tournament.{tournament.pk}"  # a channel group's name is ASCII; a key may not be


def import_document(*, doc: Document, user=None) -> Tournament:
    """A whole tournament from its (checked) document: entrants who are not yet club players
    become club players; every round as it was played, released. All or nothing."""
    with transaction.atomic():
        tournament = Tournament.objects.create(
            key=free_key(doc.name),
            name=doc.name,
            date=doc.date or timezone.localdate(),
            game=doc.game,
            options=doc.options,
            game_settings=doc.settings,
            rounds_planned=doc.rounds_planned,
            seating=doc.seating,
            seed=doc.seed,
            bye_points=decimal(doc.bye_points),
            order=doc.order,
            duplicate=doc.duplicate,
            created_by=user,
        )
        entrants = {}
        for number, name in enumerate(doc.players, start=1):
            entrants[name] = Entrant.objects.create(
                tournament=tournament, number=number, player=add_player(name=name, by=user)
            )
        for number, played in enumerate(doc.rounds, start=1):
            round_ = Round.objects.create(tournament=tournament, number=number, released=True)
            Bye.objects.bulk_create(
                Bye(round=round_, entrant=entrants[name]) for name in played.byes
            )
            for index, table in enumerate(played.tables, start=1):
                row_table = RoundTable.objects.create(
                    round=round_, number=index, entered_by=user, confirmed_by=user
                )
                TableSeat.objects.bulk_create(
                    TableSeat(table=row_table, position=seat, entrant=entrants[name])
                    for seat, name in enumerate(table.players)
                )
                SheetRow.objects.bulk_create(
                    SheetRow(table=row_table, index=k, data=row)
                    for k, row in enumerate(table.rows, start=1)
                )
                for ruling in doc.rulings:
                    if (ruling["round"], ruling["table"]) == (number, index):
                        made = DealRuling(
                            table=row_table,
                            deal=ruling["deal"],
                            seat=ruling["seat"],
                            kind=ruling["ruling"],
                            reason=ruling["reason"],
                            by=user,
                        )
                        made._change_reason, made._history_user = ruling["reason"], user
                        made.save()
        first_director(tournament=tournament, user=user)
        audit(user, "tournament.import", tournament, name=doc.name, rounds=len(doc.rounds))
        notify_on_commit(tournament)
    return tournament


def decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def free_key(name: str) -> str:
    """A key for addresses and commands from the name in Latin letters, numbered if it is
    taken (a former key counts as taken: its old addresses lead to its own tournament)."""
    return readable_key(name, lambda key: Tournament.objects.filter(key_lookup(key)).exists())


def notify_on_commit(tournament: Tournament, *, seat_pages: bool = False) -> None:
    """Counts the change, announces it (``signals.results_changed``: the club's ratings,
    derived from the results, follow in this transaction), and tells the tournament's live
    pages once it is committed: only its new version; each page fetches what its viewer may
    see. With ``seat_pages`` (a change of who is in for the next round, or of its check-in),
    also the seats' own pages of its tables played on devices, whose check-in it may change.
    In a duplicate tournament, also the spectators of its tables played here: a deal scored
    at every table of a group (or a round released after theirs) shows them more."""
    results_changed.send(sender=Tournament, tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    send_on_commit(group_name(tournament), {"type": "live.changed", "stamp": [version]})
    if tournament.duplicate:
        # the round under way, and the one before it, which a round released has ended
        last = tournament.rounds.filter(released=True).aggregate(last=Max("number"))["last"]
        for table in HotseatTable.objects.filter(
            tournament_table__round__tournament=tournament,
            tournament_table__round__number__gte=(last or 0) - 1,
        ).only("pk"):
            notify_spectators_on_commit(table)
    if seat_pages:
        # finished tables too: a player checks in for the next round once his table is over
        tables = HotseatTable.objects.filter(
            tournament_table__round__tournament=tournament, seats__device=True
        ).distinct()
        for table in tables:
            # the table's own version, unchanged: only a seat's page, whose version holds
            # the tournament's, finds it newer (games.consumers.SeatConsumer)
            send_on_commit(
                table_group(table),
                {"type": "live.changed", "stamp": deal_stamp(table), "parts": True},
            )


class TournamentError(ServiceError):
    """A refusal to show on the page (as the games' services refuse)."""


class OptionRefused(TournamentError):
    """The game's options refused by its rules, in their words (as a new table's form shows
    them); ``option`` is the one at fault (as records name it), or None."""

    def __init__(self, option: str | None, message: str, **params):
        super().__init__(message, **params)
        self.option = option


class EntryRefused(TournamentError):
    """An entry of several refused: ``index`` (from 0) is the entry at fault."""

    def __init__(self, index: int, message: str, **params):
        super().__init__(message, **params)
        self.index = index


class SheetRefused(TournamentError):
    """A typed sheet with a faulty row: ``row`` (from 1) is the row at fault."""

    def __init__(self, row: int | None, message: str, **params):
        super().__init__(message, **params)
        self.row = row


def create_tournament(
    *,
    user,
    name: str,
    game: str,
    options: dict,
    settings: dict,
    rounds_planned: int,
    seating: str,
    seed: int,
    bye_points,
    order: list[str],
    duplicate: bool = False,
    confirmation: bool = False,
    date: datetime.date | None = None,
    form_token: str | None = None,
) -> Tournament:
    """A new tournament, its options and settings checked as a document's are; its date is
    today's unless given. The form of ``form_token`` sent again (a double click, the page
    sent twice) creates nothing: it gives the tournament the form created."""
    try:
        checked = read_settings(
            {
                "tournament": name,
                "game": game,
                "options": options,
                **settings,
                "rounds_planned": rounds_planned,
                "seating": seating,
                "seed": seed,
                "bye_points": bye_points,
                "order": order,
                "duplicate": duplicate,
            }
        )
    except DuplicateRefused as exc:
        raise TournamentError(exc.refusal.message, **exc.refusal.params) from None
    except OptionsRefused as exc:
        refusal = refused(exc.refusal)
        option = getattr(refusal, "option", None)
        raise OptionRefused(option, refusal.message, **refusal.params) from None
    except Unplayable as exc:
        raise TournamentError(
            gettext_noop(
                "These options cannot be played at a table of %(count)s, which a round may need."
            ),
            count=exc.size,
        ) from None
    except NotADocument as exc:
        raise TournamentError(
            gettext_noop("These settings do not fit: %(reason)s"), reason=str(exc)
        ) from None
    with transaction.atomic():
        sent = form_token and Tournament.objects.filter(form_token=form_token).first()
        if sent:
            return created_from(sent, user)
        try:
            with transaction.atomic():  # the same form sent at the same moment: one wins
                tournament = Tournament.objects.create(
                    key=free_key(checked["name"]),
                    name=checked["name"],
                    date=date or timezone.localdate(),
                    game=checked["game"],
                    options=checked["options"],
                    game_settings=checked["settings"],
                    rounds_planned=checked["rounds_planned"],
                    seating=checked["seating"],
                    seed=checked["seed"],
                    bye_points=decimal(checked["bye_points"]),
                    order=checked["order"],
                    duplicate=checked["duplicate"],
                    confirmation=confirmation,
                    created_by=user,
                    form_token=form_token or None,
                )
        except IntegrityError:
            sent = form_token and Tournament.objects.filter(form_token=form_token).first()
            if not sent:
                raise
            return created_from(sent, user)
        first_director(tournament=tournament, user=user)
        audit(user, "tournament.create", tournament)
        notify_on_commit(tournament)
    return tournament


def created_from(sent: Tournament, user) -> Tournament:
    """The tournament a form already sent created, for the member who sent it."""
    if sent.created_by_id != getattr(user, "pk", None):
        raise TournamentError(gettext_noop("This form has already been sent."))
    return sent


def locked_table(pk: int) -> RoundTable | None:
    """A round's table locked for a write of its sheet or its rulings, with its tournament;
    None once it is gone (its round redrawn)."""
    return (
        RoundTable.objects.select_for_update()
        .select_related("round__tournament")
        .filter(pk=pk)
        .first()
    )


def audit(user, verb: str, tournament: Tournament, **data) -> None:
    AuditEntry.objects.create(user=user, verb=verb, data={"tournament": tournament.key, **data})
