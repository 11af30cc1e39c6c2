"""Line charts drawn on the server (pure Python, no Django): ``line_chart`` lays out the axes,
their ticks, each series' lines and markers and the table of its numbers, and
``templates/core/_chart.html`` draws it as SVG, with the numbers as a table beside it.

Every coordinate is written with at most one decimal, as the SVG's own text (the page's
language must not turn 12.5 into "12,5"); values that are shown (ticks, the table) stay
numbers, for the template to write in the reader's way. Each series has its own colour, its
own marker and its own dash, so that it reads without the colour; the colours are at least
3:1 against the page (``BACKGROUNDS``), as non-text contrast asks.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

# The page's backgrounds in static/css/app.css: a panel's white and the page around it.
BACKGROUNDS = ("#ffffff", "#f3f0e8")
COLOURS = (
    "#0b5fa5",  # blue
    "#d55e00",  # vermilion
    "#1b7a3a",  # green
    "#b0003a",  # crimson
    "#8e2a8e",  # purple
    "#00727a",  # teal
    "#6b4a2b",  # brown
    "#6b6b00",  # olive
)
SHAPES = (
    "circle",
    "square",
    "triangle",
    "diamond",
    "triangle-down",
    "circle-open",
    "square-open",
    "diamond-open",
)
DASHES = ("", "7 4", "2 3", "9 3 2 3")  # stroke-dasharray: solid, dashed, dotted, dash-dot
WIDTH, HEIGHT = 400, 260  # the viewBox: a 300 px wide phone shows it at three quarters
FONT = 16  # 12 px on that phone
MARKER = 5.0  # a marker's half size
PAD = 12.0  # between the plot's sides and its first and last points
INSET = 6.0  # between the plot's top and bottom and its highest and lowest ticks
CHAR = 0.6  # a character's width, in font sizes (digits of a system sans-serif)


@dataclass(frozen=True)
class Series:
    name: str  # a player's name, a seat's name
    values: list[float | int | None]  # one per x label; None: no point there


@dataclass(frozen=True)
class Tick:
    value: int | float | str  # what it reads: a number (the template writes it) or a label
    at: str  # its coordinate along its axis


@dataclass(frozen=True)
class Point:
    x: str
    y: str
    path: str  # the marker, drawn round (x, y)
    label: str  # its x label
    value: int | float


@dataclass(frozen=True)
class Line:
    """One series as drawn: its style, its unbroken runs (a None breaks the line) and its
    markers, and its legend's swatch."""

    name: str
    colour: str
    dash: str  # stroke-dasharray, "" for a solid line
    shape: str
    hollow: bool  # an open marker: filled with the background, outlined in the colour
    segments: tuple[str, ...]  # each a polyline's points, "x,y x,y …" (two points or more)
    markers: tuple[Point, ...]
    swatch: str  # the marker in the legend's 36 × 14 box


@dataclass(frozen=True)
class Chart:
    title: str
    x_title: str
    y_title: str
    width: int
    height: int
    font: int
    left: str  # the plot's box
    top: str
    right: str
    bottom: str
    x_ticks: tuple[Tick, ...]  # the labels shown (at most as many as fit)
    y_ticks: tuple[Tick, ...]
    x_label_y: str  # the x labels' baseline
    y_label_x: str  # where the y labels end
    x_title_at: tuple[str, str]  # the middle of its baseline
    y_title_at: tuple[str, str]  # the same, before it is turned a quarter left
    lines: tuple[Line, ...]
    rows: tuple[tuple, ...]  # the numbers: (x label, each series' value or "")
    invert: bool

    @property
    def legend(self) -> tuple[Line, ...]:
        return self.lines

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"


def line_chart(
    *,
    title: str,
    x_title: str,
    y_title: str,
    x_labels: list[str],
    series: list[Series],
    invert: bool = False,
    width: int = WIDTH,
    height: int = HEIGHT,
    font: int = FONT,
) -> Chart:
    """A line chart of ``series`` over ``x_labels``. ``invert``: a bump chart of places (1
    at the top, integer ticks, nothing above 1). The words are shown as given (translated by
    the caller)."""
    for one in series:
        if len(one.values) != len(x_labels):
            raise ValueError(
                f"{one.name!r} has {len(one.values)} values for {len(x_labels)} labels"
            )
    values = [v for one in series for v in one.values if v is not None]
    integers = all(float(v).is_integer() for v in values)
    top = max(4.0, font * 0.5 + 4 - INSET)  # room for the highest tick's label
    bottom = height - (2.2 * font + 14)
    if invert:
        low, high, ticks = place_ticks(values, bottom - top - 2 * INSET, font)
    else:
        low, high, ticks = value_ticks(values, integers)
    label_width = max((len(str(t)) for t in ticks), default=1) * CHAR * font
    left = 4 + 1.2 * font + 6 + label_width + 6
    last = len(x_labels[-1]) * CHAR * font / 2 if x_labels else 0
    right = width - max(PAD, last - PAD + 4)

    def x_of(index: int) -> float:
        if len(x_labels) == 1:
            return (left + right) / 2
        return left + PAD + index * (right - left - 2 * PAD) / (len(x_labels) - 1)

    def y_of(value: float) -> float:
        share = (float(value) - low) / (high - low)
        span = bottom - top - 2 * INSET
        return top + INSET + share * span if invert else bottom - INSET - share * span

    lines = []
    for index, one in enumerate(series):
        shape = SHAPES[index % len(SHAPES)]
        segments: list[list[str]] = []
        run: list[str] = []
        markers: list[Point] = []
        for position, value in enumerate(one.values):
            if value is None:
                segments.append(run)
                run = []
                continue
            x, y = x_of(position), y_of(value)
            run.append(f"{coordinate(x)},{coordinate(y)}")
            markers.append(
                Point(
                    coordinate(x),
                    coordinate(y),
                    marker(shape, x, y, MARKER),
                    x_labels[position],
                    value,
                )
            )
        segments.append(run)
        lines.append(
            Line(
                name=one.name,
                colour=COLOURS[index % len(COLOURS)],
                dash=DASHES[index % len(DASHES)],
                shape=shape,
                hollow=shape.endswith("-open"),
                segments=tuple(" ".join(run) for run in segments if len(run) > 1),
                markers=tuple(markers),
                swatch=marker(shape, 18, 7, 4.5),
            )
        )
    return Chart(
        title=title,
        x_title=x_title,
        y_title=y_title,
        width=width,
        height=height,
        font=font,
        left=coordinate(left),
        top=coordinate(top),
        right=coordinate(right),
        bottom=coordinate(bottom),
        x_ticks=tuple(
            Tick(x_labels[i], coordinate(x_of(i)))
            for i in shown_labels(x_labels, right - left - 2 * PAD, font)
        ),
        y_ticks=tuple(Tick(value, coordinate(y_of(value))) for value in ticks),
        x_label_y=coordinate(bottom + 4 + font),
        y_label_x=coordinate(left - 6),
        x_title_at=(coordinate((left + right) / 2), coordinate(height - 5)),
        y_title_at=(coordinate(4 + 0.9 * font), coordinate((top + bottom) / 2)),
        lines=tuple(lines),
        rows=tuple(
            (label, *("" if one.values[i] is None else one.values[i] for one in series))
            for i, label in enumerate(x_labels)
        ),
        invert=invert,
    )


def coordinate(value: float) -> str:
    """A coordinate with at most one decimal: 12, 12.5 (never "-0")."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def number(value: Decimal) -> int | float:
    """A tick's value as the template writes it: 20, or 2.5 (in the reader's way)."""
    return int(value) if value == value.to_integral_value() else float(value)


def nice_step(raw: float, integers: bool) -> Decimal:
    """The least of 1, 2, 5 × 10ⁿ not below ``raw`` (at least 1 for integers)."""
    exponent = math.floor(math.log10(raw)) if raw > 0 else 0
    step = Decimal(10).scaleb(exponent)
    for mantissa in (1, 2, 5, 10):
        step = Decimal(mantissa).scaleb(exponent)
        if float(step) >= raw * (1 - 1e-9):
            break
    return max(step, Decimal(1)) if integers else step


def value_ticks(values: Sequence[float], integers: bool, most: int = 6):
    """The axis's ends and its ticks, at a "nice" step, enclosing the values."""
    low = min(values, default=0)
    high = max(values, default=1)
    if low == high:
        spread = 1 if integers or low == 0 else abs(low) / 10
        low, high = low - spread, high + spread
    step = nice_step((high - low) / (most - 1), integers)
    first = math.floor(Decimal(str(low)) / step)
    last = math.ceil(Decimal(str(high)) / step)
    ticks = [number(k * step) for k in range(first, last + 1)]
    return ticks[0], ticks[-1], ticks


def place_ticks(values: Sequence[float], span: float, font: int):
    """A bump chart's axis: from place 1 down to the last place shown; every place ticked
    where there is room, else 1 and the multiples of a nice step."""
    high = max(2, math.ceil(max(values, default=2)))
    if span / (high - 1) >= 1.3 * font:
        return 1, high, list(range(1, high + 1))
    most = max(2, int(span // (2.2 * font)))
    step = int(nice_step((high - 1) / (most - 1), True))
    last = -(-high // step) * step
    ticks = [1] + [k for k in range(step, last + 1, step) if k - 1 > step / 2]
    return 1, last, ticks


def shown_labels(labels: Sequence[str], span: float, font: int) -> list[int]:
    """The x labels that fit side by side: every k-th from the first, and the last."""
    count = len(labels)
    if count == 0:
        return []
    room = max(len(label) for label in labels) * CHAR * font + 0.8 * font
    fit = max(1, int(span // room) + 1)
    every = max(1, math.ceil(count / fit)) if count > fit else 1
    shown = list(range(0, count, every))
    if shown[-1] != count - 1:
        gap = (count - 1 - shown[-1]) * (span / max(1, count - 1))
        if gap < room:
            shown.pop()
        shown.append(count - 1)
    return shown


def marker(shape: str, x: float, y: float, size: float) -> str:
    """A marker's path round (x, y), ``size`` its half width."""
    r = size
    match shape.removesuffix("-open"):
        case "circle":
            d, a = coordinate(2 * r), coordinate(r)
            return f"M{coordinate(x - r)},{coordinate(y)}a{a},{a} 0 1,0 {d},0a{a},{a} 0 1,0 -{d},0Z"
        case "square":
            corners = [(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)]
        case "triangle":
            corners = [(0, -1.2), (1.1, 0.8), (-1.1, 0.8)]
        case "triangle-down":
            corners = [(0, 1.2), (1.1, -0.8), (-1.1, -0.8)]
        case "diamond":
            corners = [(0, -1.3), (1, 0), (0, 1.3), (-1, 0)]
        case _:
            raise ValueError(f"no marker {shape!r}")
    return (
        "M"
        + "L".join(f"{coordinate(x + dx * r)},{coordinate(y + dy * r)}" for dx, dy in corners)
        + "Z"
    )
