"""What the pages show, as typed data: the table page, its log and score sheets, the lists of
tables; and ``Presenter``, the base of every game's presenter part.

The shared parts are built by ``games.selectors``; each game's ``Presenter`` (in
``games/<game>/presenter.py``) adds its own: the board its templates draw, badges on the
seats, its part of a score sheet's row, the wording of its log entries.
"""

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.charts import Chart, Series, line_chart

from .engine.base import View
from .engine.cards import sort_for_hand
from .models import Cycle, Deal, Table
from .registry import Game
from .templatetags.cards import card_text


@dataclass(frozen=True)
class Badge:
    css: str  # a class of the stylesheet
    text: str


@dataclass
class Seat:
    """A seat as the top of the table page shows it."""

    index: int
    name: str
    count: int  # cards in hand
    dealer: bool
    to_act: bool
    badges: list[Badge] = field(default_factory=list)
    robot: bool = False  # a robot plays it
    device: bool = False  # its player plays on his own device
    connected: bool | None = None  # a device seat's page is open now
    mine: bool = False  # the seat of the page's own link


@dataclass
class LogEntry:
    """One line of the deal's log: an action, or the take-back of one."""

    name: str  # who acted (escaped for HTML, as ``players``)
    action: dict  # as the record writes it
    taken_back: bool
    players: list[str]
    text: str = ""  # its wording, as HTML (``Presenter.log_text``)
    # taken back, its card is now in a hand the viewer may not see: the wording must tell
    # nothing of the card (its name, nor where it lay)
    unseen: bool = False


@dataclass
class SheetRow:
    position: int  # in the cycle
    number: int  # of the deal at the table
    dealer: str
    scores: list[int]
    new: bool  # the deal just finished: the page marks it
    detail: object = None  # the game's part (``Presenter.sheet_detail``)


@dataclass
class Sheet:
    """A cycle's (or match's) score sheet: a column per player, a row per finished deal."""

    cycle: Cycle
    players: list[str]
    rows: list[SheetRow]
    totals: list[int]
    complete: bool
    winners: list[str]


@dataclass
class Totals:
    """The running total of a table whose deals are not scored in cycles."""

    players: list[str]
    rows: list[SheetRow]
    totals: list[int]


def running_totals_chart(sheet: Sheet | Totals) -> Chart | None:
    """Each seat's running total after each finished deal of the sheet (None before the
    first): the same for every game, from the sheet's scores alone."""
    if not sheet.rows:
        return None
    totals = [0] * len(sheet.players)
    by_deal = []
    for row in sheet.rows:
        totals = [total + score for total, score in zip(totals, row.scores, strict=True)]
        by_deal.append(totals)
    return line_chart(
        title=_("Running totals after each deal"),
        x_title=_("Deal"),
        y_title=_("Points"),
        x_labels=[str(row.position) for row in sheet.rows],
        series=[
            Series(name, [after[seat] for after in by_deal])
            for seat, name in enumerate(sheet.players)
        ],
    )


@dataclass
class TakeBack:
    seat: int
    name: str


@dataclass(frozen=True)
class PlayedFor:
    """The tournament's table a hotseat table is played for, as its page names it."""

    tournament: str
    round: int
    table: int  # its number in the round
    url: str  # the round's page


@dataclass
class TablePage:
    """Everything the hotseat page shows; no hand but that of the player at the screen."""

    table: Table
    deal: Deal
    game: Game
    players: list[str]
    mode: str  # "handoff", "turn", "robot" (a robot's turn), "over"; "watch" for a spectator
    view: View  # the engine's view for the seat at the screen (a spectator's otherwise)
    hand: list[str]  # the hand of the player at the screen, as he holds it
    legal: list[dict]  # the actions he may take now
    to_act_name: str | None
    take_back: TakeBack | None
    log: list[LogEntry]
    sheet: Sheet | None  # the cycle's score sheet, in a game of cycles
    totals: Totals | None  # the running total, otherwise
    seats: list[Seat] = field(default_factory=list)
    seat: int | None = None  # the seat of the page's own link (``/s/<key>/``), if it is one
    board: object = None  # the game's own (``Presenter.board``)
    heading: str = ""  # where the deal stands in its cycle
    sheet_title: str = ""
    sheet_verdict: str = ""  # who won the cycle, once it is complete
    next_label: str = ""
    practice: bool = False  # one person, the other seats robots
    hand_of: str | None = None  # whose hand a robot's turn shows (a practice table's person)
    scores_key: str = ""  # what the sheet or the running totals show (they are cached)
    played_for: PlayedFor | None = None  # a tournament's table: its round and number


@dataclass(frozen=True)
class Link:
    """A page a list links to: a cycle's (or match's) score sheet, a tournament's round."""

    title: str  # a sheet's as the game words it (``Presenter.sheet_title``)
    url: str


@dataclass(frozen=True)
class MySeat:
    """An open table a member is seated at, as his front page lists it."""

    game: str
    others: list[str]  # the other seats' names, in seat order
    my_turn: bool
    url: str  # his seat's own link if he plays on a device, else the table's page


@dataclass(frozen=True)
class Score:
    name: str
    total: int | None  # None: no deal of the table (or of its cycle) has finished yet


@dataclass
class TableRow:
    """A table as the list of tables shows it: nothing of a hand, only what its score sheet
    and its running total show."""

    table: Table
    game: Game
    name: str  # its own, or its game and players
    deal: int  # the number of its current deal
    deal_over: bool
    host: str  # who started it
    scores: list[Score]  # each player's running total, as its page shows it
    scores_title: str  # the sheet they are the totals of ("": all the table's deals)
    sheets: list[Link]
    url: str  # its page, or its spectators' page for whom may not open it
    tournament: Link | None  # the round it is played for, if any
    can_manage: bool  # the viewer may rename, finish or abandon it

    @property
    def can_finish(self) -> bool:
        # a tournament's table is finished by its tournament, once its sheet is complete
        return self.can_manage and self.table.is_open and self.deal_over and self.tournament is None


@dataclass(frozen=True)
class OpenHand:
    """A seat's hand shown face up, as a replay of a finished deal shows every hand."""

    seat: int
    name: str
    cards: list[str]  # as the seat holds them


class Presenter:
    """A game's part of the pages. Override what the game shows."""

    def board(self, page: TablePage, chosen: str | None) -> object:
        """The game's data for its board, turn and result templates. ``chosen``: a card the
        player at the screen has picked (a query parameter), for games that show where it
        may go."""
        return None

    def open_hands(self, views: list[View], players: list[str]) -> list[OpenHand]:
        """Every seat's hand face up, from each seat's own view (a finished deal's replay:
        nothing is secret). By default each hand sorted as a player holds it."""
        return [
            OpenHand(seat, players[seat], sort_for_hand(view["hand"]))
            for seat, view in enumerate(views)
        ]

    def badges(self, page: TablePage, seat: int) -> list[Badge]:
        """Marks on a seat beyond the dealer and the turn (a side, a finishing place)."""
        return []

    def log_text(self, entry: LogEntry) -> str:
        """The wording of a log entry, as HTML. By default the template that
        ``log_template`` names, rendered with the entry as ``e``; the club's games word
        their entries here, in Python, which is quicker for the log of a whole deal. An
        ``unseen`` entry tells nothing of its card."""
        return render_to_string(self.log_template(entry.action), {"e": entry})

    def log_template(self, action: dict) -> str:
        """The template that words a log entry of this action (see ``log_text``)."""
        raise NotImplementedError

    def sheet_detail(self, result: dict, players: list[str]) -> object:
        """The game's part of a score sheet's row for a finished deal's result."""
        return None

    def sheet_title(self, cycle: Cycle) -> str:
        return _("Score sheet of cycle %(n)s") % {"n": cycle.number}

    def verdict(self, sheet: Sheet) -> str:
        """Who won the complete cycle (equal totals share the place)."""
        return ngettext(
            "Cycle %(number)s is over. Its winner: %(names)s.",
            "Cycle %(number)s is over. Its winners, sharing the place: %(names)s.",
            len(sheet.winners),
        ) % {"number": sheet.cycle.number, "names": ", ".join(sheet.winners)}

    def heading(self, sheet: Sheet, position: int) -> str:
        """Where the current deal stands in its cycle, under the page's title."""
        return _("cycle %(n)s, deal %(position)s of %(length)s") % {
            "n": sheet.cycle.number,
            "position": position,
            "length": sheet.cycle.length,
        }

    def next_label(self, sheet: Sheet | None) -> str:
        if sheet is not None and sheet.complete:
            return _("Start a new cycle")
        return _("Next deal")


def fill(message: str, **params) -> SafeString:
    """A translated message filled in as {% blocktranslate %} fills it: the values escaped,
    the message's own text kept as it is."""
    return mark_safe(message % {name: conditional_escape(value) for name, value in params.items()})


def card_played(entry: LogEntry) -> SafeString:
    """The log's wording of a card played (``{"play": "9H"}``), or its take-back."""
    if entry.unseen:
        return fill(
            _("%(name)s took back a card") if entry.taken_back else _("%(name)s laid a card"),
            name=entry.name,
        )
    card = card_text(entry.action["play"])
    if entry.taken_back:
        return fill(_("%(name)s took back %(card)s"), name=entry.name, card=card)
    return fill(_("%(name)s laid %(card)s"), name=entry.name, card=card)
