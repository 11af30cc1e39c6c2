from dataclasses import dataclass

from games.page_data import Presenter, TablePage


@dataclass(frozen=True)
class Line:
    name: str
    played: list[str]  # face up, in the order laid
    score: int | None  # once the deal is over


@dataclass(frozen=True)
class DuelBoard:
    lines: list[Line]  # one per seat


class DuelPresenter(Presenter):
    def board(self, page: TablePage, chosen: str | None) -> DuelBoard:
        view = page.view
        scores = view["scores"] or [None] * len(page.players)
        return DuelBoard(
            [
                Line(name, view["played"][seat], scores[seat])
                for seat, name in enumerate(page.players)
            ]
        )

    def log_template(self, action: dict) -> str:
        return "duel/log/play.html"
