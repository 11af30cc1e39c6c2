from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.numbers import figure
from games.engine.cards import SUITS
from games.page_data import Badge, LogEntry, Presenter, TablePage, card_played, fill

from .engine import SAY_LENGTH, TRUMPS


@dataclass(frozen=True)
class Contract:
    number: int
    trumps: str | None  # a suit letter, or None: no trumps
    counts: str  # what the tricks count


def contract(number, counts) -> Contract:
    trump = TRUMPS[number]
    return Contract(number, SUITS[trump] if trump is not None else None, counts)


# The eight contracts as the auction shows them: trumps, and what the tricks count.
CONTRACTS = [
    contract(1, gettext_lazy("the side with more tricks: +12")),
    contract(2, gettext_lazy("+2 a trick")),
    contract(3, gettext_lazy("+2 a spade")),
    contract(4, gettext_lazy("+1 a red card, −1 a black card")),
    contract(5, gettext_lazy("+5 a black ten or jack, −5 a red ten or jack")),
    contract(6, gettext_lazy("+1 a red card; the lowest card wins the trick")),
    contract(7, gettext_lazy("−2 a club")),
    contract(8, gettext_lazy("−2 a trick")),
]


@dataclass(frozen=True)
class Sides:
    attackers: list[str]
    defenders: list[str]
    tricks: list[int]  # [attackers, defenders]
    points: list[int] | None  # as their tricks count so far

    @property
    def taken(self) -> list[str]:
        """What each side has taken so far, [attackers, defenders]: "2 tricks, 6 points"."""
        return [
            taken(self.tricks[side], self.points[side] if self.points else None) for side in (0, 1)
        ]


def taken(tricks: int, points: int | None) -> str:
    text = ngettext("%(n)s trick", "%(n)s tricks", tricks) % {"n": tricks}
    if points is None:
        return text
    # the plural by the number's size: "−5 points" reads as "5 points" does
    return f"{text}, " + ngettext("%(p)s point", "%(p)s points", abs(points)) % {
        "p": figure(points)
    }


@dataclass(frozen=True)
class Call:
    name: str
    number: int
    say: str


@dataclass(frozen=True)
class TrickPlace:
    """A seat round the trick: the player to act at the bottom, the next on his left."""

    name: str
    card: str | None
    place: str  # "bottom", "left", "top" or "right"
    led: bool


@dataclass(frozen=True)
class Played:
    name: str
    card: str


@dataclass(frozen=True)
class ResultRow:
    name: str
    attacker: bool
    tricks: int
    score: int


@dataclass(frozen=True)
class VarietyBoard:
    contracts: list[Contract]
    contract: Contract | None
    sides: Sides | None
    calls: list[Call]
    called: set[int]  # the numbers the player at the screen has called
    say_length: int
    trick: list[TrickPlace]
    last_trick: list[Played] | None
    last_winner: str | None
    attackers_won: bool | None  # once the deal is over
    results: list[ResultRow]

    @property
    def first_call(self) -> int | None:
        """The first number the player at the screen may still call: it takes the focus."""
        return next((c.number for c in self.contracts if c.number not in self.called), None)


@dataclass(frozen=True)
class Cell:
    score: int
    bonus: bool  # a defender's score that includes the bonus of 10


@dataclass(frozen=True)
class SheetDetail:
    contract: int
    attackers: list[str]
    attackers_won: bool
    cells: list[Cell]


class VarietyPresenter(Presenter):
    def board(self, page: TablePage, chosen: str | None) -> VarietyBoard:
        view, players = page.view, page.players
        sides = None
        if view["attackers"]:
            sides = Sides(
                [players[s] for s in view["attackers"]],
                [players[s] for s in view["defenders"]],
                [sum(view["tricks"][s] for s in view[side]) for side in ("attackers", "defenders")],
                view["points"],
            )
        trick = {play["seat"]: play["card"] for play in view["trick"]}
        base = view["to_act"] or 0
        leader = view["trick"][0]["seat"] if view["trick"] else None
        results = []
        if view["over"]:
            results = [
                ResultRow(
                    name, seat in view["attackers"], view["tricks"][seat], view["scores"][seat]
                )
                for seat, name in enumerate(players)
            ]
        return VarietyBoard(
            contracts=CONTRACTS,
            contract=CONTRACTS[view["contract"] - 1] if view["contract"] else None,
            sides=sides,
            calls=[Call(players[c["seat"]], c["call"], c["say"]) for c in view["calls"]],
            called=set(view["called"]),
            say_length=SAY_LENGTH,
            trick=[
                TrickPlace(
                    players[s],
                    trick.get(s),
                    ("bottom", "left", "top", "right")[(s - base) % 4],
                    s == leader,
                )
                for s in range(4)
            ],
            last_trick=(
                [Played(players[p["seat"]], p["card"]) for p in view["last_trick"]]
                if view["last_trick"]
                else None
            ),
            last_winner=(players[view["last_winner"]] if view["last_winner"] is not None else None),
            attackers_won=view["points"][0] > view["points"][1] if view["over"] else None,
            results=results,
        )

    def badges(self, page: TablePage, seat: int) -> list[Badge]:
        attackers = page.view["attackers"]
        if not attackers:
            return []
        if seat in attackers:
            return [Badge("attack", _("attacker"))]
        return [Badge("defence", _("defender"))]

    def log_text(self, entry: LogEntry) -> str:
        action = entry.action
        if "play" in action:
            return card_played(entry)
        if entry.taken_back:
            return fill(_("%(name)s took back the call %(n)s"), name=entry.name, n=action["call"])
        text = fill(_("%(name)s called %(n)s"), name=entry.name, n=action["call"])
        return format_html("{} — «{}»", text, action["say"]) if action.get("say") else text

    def sheet_detail(self, result: dict, players: list[str]) -> SheetDetail:
        won = result["attackers_won"]
        return SheetDetail(
            contract=result["contract"],
            attackers=[players[s] for s in result["attackers"]],
            attackers_won=won,
            cells=[
                Cell(score, not won and seat in result["defenders"])
                for seat, score in enumerate(result["scores"])
            ],
        )
