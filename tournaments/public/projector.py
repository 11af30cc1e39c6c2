"""The projector page's layout, pure Python: how many columns the round's tables and the
standings take, and how tall and wide the page then is in em, from what it shows. The page's
type is as large as its screen allows (static/css/tournaments.css: the smaller of the
screen's height over the page's and its width over the page's), so that a few entrants fill
the screen in large type and forty still fit it.

The measures are those of the page's stylesheet, a name's width its letters' (at a Cyrillic
letter's width, a little more than the average); the columns are those that give the largest
type on a 16:9 screen (a projector's, a television's): on another the type is smaller, the
page still whole.
"""

import math
from dataclasses import dataclass

LINE = 1.25  # the page's line height
LETTER = 0.62  # a letter's width, of a name or a heading's words
SCREEN = (16, 9)  # the screen the columns are chosen for: its width and height
MOST_STANDINGS_COLUMNS = 6

# What the page's parts take, in em of its type (static/css/tournaments.css)
PAGE = (2.0, 0.6)  # main's padding: left and right, top and bottom
TITLE = 1.7  # the tournament's name, in em of the page's type
HEADING = 1.2 * LINE + 2 * 0.2 * 1.2  # a section's heading with its margins
TABLE = 0.2  # a table of the round: its padding, top and bottom
TABLE_SIDES = 0.3 + 2 * 0.45 + 2.0  # its border and padding, and a player's points
TABLE_HEAD = 15.5  # its number and its state ("awaiting confirmation", in smaller type)
TABLE_GAPS = (0.6, 0.3)  # between the tables: across, down
TEXT = 0.2  # above a line of names (the byes, who is checked in)
STANDINGS_HEAD = 2.6  # the standings' column heads, in two lines
STANDINGS_ROW = 1.4  # a standings row: its line, padding and border
STANDINGS_FIGURES = 13.5  # its place, match points and points, with the cells' padding
DUPLICATE_FIGURES = 12.5  # a duplicate tournament's percentage, field figure and deals
STANDINGS_GAP = 1.5  # between the standings' columns


@dataclass(frozen=True)
class Layout:
    table_columns: int
    standings_rows: int  # the most in one column of the standings
    height: float  # em
    width: float  # em

    @property
    def style(self) -> str:
        """The page's measures as its stylesheet reads them (CSS custom properties)."""
        return (
            f"--page-height: {self.height:.2f}; --page-width: {self.width:.2f}; "
            f"--table-columns: {self.table_columns}"
        )


def layout(
    *,
    tables: list[int],
    names: list[str],
    title: str,
    subtitle: str,
    byes: str = "",
    checked_in: str | None = None,
    duplicate: bool = False,
) -> Layout:
    """The layout of a page of the round's ``tables`` (each its number of players) and the
    standings of ``names``, under ``title`` and ``subtitle`` (the game and the date), with
    the round's ``byes`` and, under a heading of their own, the names ``checked_in`` for the
    next: lines of names that wrap across the page; a ``duplicate`` tournament's standings
    have three more columns."""
    figures = STANDINGS_FIGURES + (DUPLICATE_FIGURES if duplicate else 0)
    texts = [text for text in (byes, checked_in) if text]
    name = LETTER * max((len(name) for name in names), default=0)
    table_width = max(name + TABLE_SIDES, TABLE_HEAD)
    best = None
    for table_columns in range(1, max(len(tables), 1) + 1):
        for standings_columns in range(1, MOST_STANDINGS_COLUMNS + 1):
            rows = max(1, math.ceil(len(names) / standings_columns))
            columns = max(1, math.ceil(len(names) / rows))
            width = PAGE[0] + max(
                table_columns * table_width + (table_columns - 1) * TABLE_GAPS[0],
                columns * (name + figures) + (columns - 1) * STANDINGS_GAP,
            )
            height = (
                PAGE[1]
                + lines(LETTER * (TITLE * len(title) + len(subtitle) + 1), width) * TITLE * LINE
                + sum(lines(LETTER * len(text), width) * LINE + TEXT for text in texts)
                + (HEADING if checked_in is not None else 0)
                + HEADING
                + STANDINGS_HEAD
                + rows * STANDINGS_ROW
            )
            if tables:
                down = math.ceil(len(tables) / table_columns)
                height += (
                    HEADING + down * (LINE * (1 + max(tables)) + TABLE) + (down - 1) * TABLE_GAPS[1]
                )
            size = min(SCREEN[0] / width, SCREEN[1] / height)
            if best is None or size > best[0]:
                best = (size, Layout(table_columns, rows, round(height, 2), round(width, 2)))
    assert best is not None
    return best[1]


def lines(words: float, width: float) -> int:
    """The lines that ``words`` em of text take across a page ``width`` em wide."""
    return max(1, math.ceil(words / (width - PAGE[0])))
