from dataclasses import dataclass

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.engine.cards import RANKS
from games.page_data import Badge, LogEntry, Presenter, TablePage, card_played, fill
from games.templatetags.cards import card_image


@dataclass(frozen=True)
class Slot:
    code: str | None  # the card on the table there, if any
    start: bool  # the start rank's place

    def __html__(self) -> str:
        """The slot as the board draws it: the card laid there, or an empty place."""
        start = " start" if self.start else ""
        if self.code:
            return card_image(self.code, "card" + start)
        return mark_safe(f'<span class="slot{start}"></span>')


@dataclass(frozen=True)
class Row:
    suit: str
    slots: list[Slot]

    @property
    def places(self) -> str:
        """The row's slots as the board draws them: written here rather than by a {% for %}
        in the template, as a board has 52 of them."""
        return mark_safe("\n".join(slot.__html__() for slot in self.slots))


@dataclass(frozen=True)
class ResultRow:
    name: str
    place: int | None  # finishing place, for those who went out
    count: int  # cards left
    score: int


@dataclass(frozen=True)
class FantanBoard:
    rows: list[Row]  # the four suits, each a place for every rank
    results: list[ResultRow]  # once the deal is over


class FantanPresenter(Presenter):
    def board(self, page: TablePage, chosen: str | None) -> FantanBoard:
        view = page.view
        start = RANKS.index(view["start_rank"])
        rows = []
        for row in view["rows"]:
            on_table = set(row["cards"])
            rows.append(
                Row(
                    row["suit"],
                    [
                        Slot(
                            rank + row["suit"] if rank + row["suit"] in on_table else None,
                            i == start,
                        )
                        for i, rank in enumerate(RANKS)
                    ],
                )
            )
        results = []
        if view["over"]:
            place = self.places(view)
            results = [
                ResultRow(name, place.get(seat), view["counts"][seat], view["scores"][seat])
                for seat, name in enumerate(page.players)
            ]
        return FantanBoard(rows, results)

    @staticmethod
    def places(view) -> dict[int, int]:
        return {seat: i + 1 for i, seat in enumerate(view["finish_order"])}

    def badges(self, page: TablePage, seat: int) -> list[Badge]:
        place = self.places(page.view).get(seat)
        return [Badge("out", _("out %(place)s") % {"place": place})] if place else []

    def log_text(self, entry: LogEntry) -> str:
        if "play" in entry.action:
            return card_played(entry)
        if entry.taken_back:
            return fill(_("%(name)s took back a pass"), name=entry.name)
        return fill(_("%(name)s passed"), name=entry.name)
