from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.cards import sort_for_hand
from games.page_data import LogEntry, Presenter, Sheet, TablePage, fill
from games.templatetags.cards import card_image, card_name, card_text, rank_shown

from .engine import LINES, PLACES


@dataclass(frozen=True)
class Place:
    place: str  # "A", "2" … "9"
    top: str | None  # the top card, if it lies face up
    down: bool  # a card lies face down on top
    under: int  # cards underneath
    scoring: bool  # on a line that scores
    target: bool  # the chosen card may be laid here
    name: str  # the place as the cards letter it ("T" for the ace in Russian)
    label: str  # what lies there, for screen readers: "A: the nine of hearts"
    first_target: bool = False  # the first of the targets: it takes the focus

    @property
    def shown(self) -> str:
        """What the place shows: its name, its top card (face up, face down or none, named
        for screen readers) and the count of the cards underneath. Written here rather than
        in the template, as the board has eighteen places."""
        if self.top:
            card = card_image(self.top, label=self.label)
        else:
            css = "card back" if self.down else "slot"
            card = f'<span class="{css}" role="img" aria-label="{escape(self.label)}"></span>'
        under = (
            f'\n<span class="under" title="{escape(_("cards underneath"))}">+{self.under}</span>'
            if self.under
            else ""
        )
        return mark_safe(
            f'<span class="place-name" aria-hidden="true">{escape(self.name)}</span>\n{card}{under}'
        )


def place_of(shown: dict, scoring: bool, target: bool, first_target: bool = False) -> Place:
    """A place of a square as the view shows it."""
    name = rank_shown(shown["place"])
    if shown["top"]:
        label = _("%(place)s: %(card)s") % {"place": name, "card": card_name(shown["top"])}
    elif shown["down"]:
        label = _("%(place)s: a card face down") % {"place": name}
    else:
        label = _("%(place)s: empty") % {"place": name}
    return Place(
        shown["place"],
        shown["top"],
        shown["down"],
        shown["under"],
        scoring,
        target,
        name,
        label,
        first_target,
    )


@dataclass(frozen=True)
class Line:
    places: list[str]
    points: int

    @property
    def shown(self) -> str:
        """Its places as the cards letter them: "A–2–3"."""
        return "–".join(rank_shown(place) for place in self.places)


@dataclass(frozen=True)
class Square:
    seat: int
    name: str
    places: list[Place]
    sum: int
    lines: list[Line]  # the lines that score
    score: int | None  # once the deal is over


@dataclass(frozen=True)
class HandCard:
    code: str
    drawn: bool
    chosen: bool


@dataclass(frozen=True)
class LeopardBoard:
    squares: list[Square]
    hand: list[HandCard]  # the player at the screen's, once he has drawn: nine cards
    chosen: str | None  # the card he has picked, to see where it may go
    can_lay: bool  # the chosen card has a place
    ender: str | None  # who ended the deal


@dataclass(frozen=True)
class Cell:
    score: int
    ended: bool  # this player ended the deal


class LeopardPresenter(Presenter):
    def board(self, page: TablePage, chosen: str | None) -> LeopardBoard:
        view, players = page.view, page.players
        hand = []
        targets = set()
        if view["drawn"]:
            # the drawn card after the hand, marked: with two packs its twin may be in hand
            codes = sort_for_hand(view["hand"][:-1]) + [view["drawn"]]
            if chosen not in codes:
                chosen = None
            marked = len(codes) - 1 - codes[::-1].index(chosen) if chosen else None
            hand = [
                HandCard(code, i == len(codes) - 1, i == marked) for i, code in enumerate(codes)
            ]
            targets = (
                {
                    (a["square"], a.get("place", chosen[0]))
                    for a in page.legal
                    if a.get("lay") == chosen
                }
                if chosen
                else set()
            )
        else:
            chosen = None
        first = next(
            (
                (seat, p["place"])
                for seat, places in enumerate(view["squares"])
                for p in places
                if (seat, p["place"]) in targets
            ),
            None,
        )
        squares = []
        for seat, places in enumerate(view["squares"]):
            lines = view["lines"][seat]
            scoring = {i for line, points in zip(LINES, lines, strict=True) if points for i in line}
            squares.append(
                Square(
                    seat=seat,
                    name=players[seat],
                    places=[
                        place_of(
                            p,
                            i in scoring,
                            (seat, p["place"]) in targets,
                            (seat, p["place"]) == first,
                        )
                        for i, p in enumerate(places)
                    ],
                    sum=view["sums"][seat],
                    lines=[
                        Line([PLACES[i] for i in line], points)
                        for line, points in zip(LINES, lines, strict=True)
                        if points
                    ],
                    score=view["scores"][seat] if view["scores"] else None,
                )
            )
        return LeopardBoard(
            squares=squares,
            hand=hand,
            chosen=chosen,
            can_lay=bool(targets),
            ender=players[view["ender"]] if view["ender"] is not None else None,
        )

    def log_text(self, entry: LogEntry) -> str:
        action, name, back = entry.action, entry.name, entry.taken_back
        if "draw" in action:  # a step: never taken back
            return fill(_("%(name)s drew a card"), name=name)
        if "end" in action:
            return fill(
                _("%(name)s took back the end of the deal")
                if back
                else _("%(name)s ended the deal"),
                name=name,
            )
        # back in his hand: neither the card nor where it lay, which can tell its rank
        if entry.unseen:
            if "discard" in action:
                text = _("%(name)s took back a discard") if back else _("%(name)s discarded a card")
            else:
                text = _("%(name)s took back a card") if back else _("%(name)s laid a card")
            return fill(text, name=name)
        if "discard" in action:
            return fill(
                _("%(name)s took back the discard %(card)s")
                if back
                else _("%(name)s discarded %(card)s"),
                name=name,
                card=card_text(action["discard"]),
            )
        if "lay" not in action:
            raise ValueError(action)
        code, square = action["lay"], entry.players[action["square"]]
        if code[0] in "JQ":  # laid face down: the log never names it
            return fill(
                _("%(name)s took back a face-down card from %(place)s of %(square)s's square")
                if back
                else _("%(name)s laid a card face down on %(place)s of %(square)s's square"),
                name=name,
                place=rank_shown(action["place"]),
                square=square,
            )
        return fill(
            _("%(name)s took back %(card)s from %(place)s of %(square)s's square")
            if back
            else _("%(name)s laid %(card)s on %(place)s of %(square)s's square"),
            name=name,
            card=card_text(code),
            place=rank_shown(action.get("place") or code[0]),
            square=square,
        )

    def sheet_detail(self, result: dict, players: list[str]) -> list[Cell]:
        return [Cell(score, seat == result["ender"]) for seat, score in enumerate(result["scores"])]

    def sheet_title(self, cycle) -> str:
        title = _("Match %(n)s") % {"n": cycle.number}
        if cycle.target:
            return f"{title} — " + _("to %(t)s points") % {"t": cycle.target}
        return f"{title} — " + ngettext("%(n)s deal", "%(n)s deals", cycle.length) % {
            "n": cycle.length
        }

    def heading(self, sheet: Sheet, position: int) -> str:
        cycle = sheet.cycle
        if cycle.length:
            return _("match %(n)s, deal %(position)s of %(length)s") % {
                "n": cycle.number,
                "position": position,
                "length": cycle.length,
            }
        return _("match %(n)s to %(target)s, deal %(position)s") % {
            "n": cycle.number,
            "target": cycle.target,
            "position": position,
        }

    def verdict(self, sheet: Sheet) -> str:
        return ngettext(
            "The match is over. Its winner: %(names)s.",
            "The match is over, drawn: %(names)s.",
            len(sheet.winners),
        ) % {"names": ", ".join(sheet.winners)}

    def next_label(self, sheet: Sheet | None) -> str:
        return _("Start a new match") if sheet and sheet.complete else _("Next deal")
