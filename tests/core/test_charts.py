"""The line charts laid out on the server (core/charts.py): values map to heights in their
order, a bump chart has place 1 at the top, a None breaks a line, one point still draws,
each series reads without its colour, and the numbers' table holds every value."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.charts import BACKGROUNDS, COLOURS, Series, line_chart

COORDINATE = re.compile(r"-?\d+(\.\d)?")


def chart(values_by_series, labels=None, **options):
    labels = labels or [str(n) for n in range(1, len(values_by_series[0]) + 1)]
    return line_chart(
        title="Totals",
        x_title="Deal",
        y_title="Points",
        x_labels=labels,
        series=[Series(f"P{i}", list(values)) for i, values in enumerate(values_by_series)],
        **options,
    )


def points(made):
    """Every marker as (series, x label, value, x, y)."""
    return [
        (line.name, p.label, p.value, float(p.x), float(p.y))
        for line in made.lines
        for p in line.markers
    ]


def heights(made) -> dict:
    """Each tick's value and its height."""
    return {tick.value: float(tick.at) for tick in made.y_ticks}


def contrast(colour: str, background: str) -> float:
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(colour), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


numbers = st.one_of(
    st.integers(-10_000, 10_000),
    st.floats(-10_000, 10_000, allow_nan=False).map(lambda v: round(v, 2)),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), numbers), min_size=1, max_size=12),
        min_size=1,
        max_size=4,
    ).map(lambda rows: [row + [None] * (max(map(len, rows)) - len(row)) for row in rows])
)
def test_a_greater_value_is_drawn_no_lower_and_every_point_inside_the_plot(rows):
    made = chart(rows)
    drawn = points(made)
    for _name, _label, value, _x, y in drawn:
        assert float(made.top) <= y <= float(made.bottom)
        # between the ticks on either side of it
        below = max(v for v in heights(made) if v <= value)
        above = min(v for v in heights(made) if v >= value)
        assert heights(made)[above] - 0.1 <= y <= heights(made)[below] + 0.1
    for _, _, first, _, y1 in drawn:
        for _, _, second, _, y2 in drawn:
            if first < second:
                assert y1 >= y2
    ticks = [float(tick.at) for tick in made.y_ticks]
    assert ticks == sorted(ticks, reverse=True)  # the ticks go up the side
    assert len(set(ticks)) == len(ticks)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(1, 300), min_size=1, max_size=10), min_size=1, max_size=8))
def test_a_bump_chart_draws_a_better_place_higher_and_ticks_only_whole_places(rows):
    size = max(map(len, rows))
    made = chart([row + [None] * (size - len(row)) for row in rows], invert=True)
    ticks = heights(made)
    assert all(isinstance(value, int) and value >= 1 for value in ticks)
    assert ticks[1] == min(ticks.values())  # place 1 at the top
    drawn = points(made)
    for _, _, first, _, y1 in drawn:
        for _, _, second, _, y2 in drawn:
            if first < second:  # a better place
                assert y1 <= y2
            if first == 1:
                assert y1 == ticks[1]


def test_place_one_is_at_the_top_and_the_places_go_down_one_by_one():
    made = chart([[3, 1, 2], [1, 2, 3], [2, 3, 1]], invert=True)
    assert [tick.value for tick in made.y_ticks] == [1, 2, 3]
    assert [float(tick.at) for tick in made.y_ticks] == sorted(
        float(tick.at) for tick in made.y_ticks
    )
    by_place = {value: y for _, _, value, _, y in points(made)}
    assert by_place[1] < by_place[2] < by_place[3]
    assert by_place[1] == float(made.y_ticks[0].at)


def test_a_bump_chart_of_many_places_ticks_1_and_round_numbers_only():
    made = chart([[150, 40, 12, 3], [1, 2, 5, 1]], invert=True)
    values = [tick.value for tick in made.y_ticks]
    assert values[0] == 1
    assert values[-1] >= 150
    assert len(values) <= 8
    steps = {b - a for a, b in zip(values[1:], values[2:], strict=False)}
    assert len(steps) == 1 and steps.pop() in (10, 20, 50, 100)


def test_integer_data_have_integer_ticks_at_a_nice_step():
    made = chart([[3, 4], [4, 3]])
    assert all(isinstance(tick.value, int) for tick in made.y_ticks)
    made = chart([[-37, 12, 88], [5, 140, 61]])
    values = [tick.value for tick in made.y_ticks]
    assert values[0] <= -37 and values[-1] >= 140
    step = values[1] - values[0]
    assert step in (10, 20, 50, 100) and all(v % step == 0 for v in values)
    halves = [tick.value for tick in chart([[0.5, 1.5, 2]]).y_ticks]
    assert any(not float(v).is_integer() for v in halves)


def test_a_none_breaks_the_line_and_leaves_its_cell_empty():
    made = chart([[1, 2, None, 4, 5], [1, None, 3, None, 5]])
    gapped, lonely = made.lines
    assert len(gapped.segments) == 2
    assert [len(s.split()) for s in gapped.segments] == [2, 2]
    assert [p.label for p in gapped.markers] == ["1", "2", "4", "5"]
    assert lonely.segments == ()  # no two points side by side: markers alone
    assert [p.value for p in lonely.markers] == [1, 3, 5]
    assert made.rows[2] == ("3", "", 3)
    assert made.rows[1] == ("2", 2, "")


def test_a_single_point_is_drawn_in_the_middle_with_its_axis():
    made = chart([[7]], labels=["Round 1"])
    (line,) = made.lines
    (point,) = line.markers
    assert line.segments == ()
    assert float(point.x) == pytest.approx((float(made.left) + float(made.right)) / 2, abs=0.1)
    assert float(made.top) < float(point.y) < float(made.bottom)
    assert len(made.y_ticks) >= 2
    assert [tick.value for tick in made.x_ticks] == ["Round 1"]
    assert made.rows == (("Round 1", 7),)
    one_place = chart([[1]], invert=True)
    assert float(one_place.lines[0].markers[0].y) == float(one_place.y_ticks[0].at)


def test_a_chart_of_no_value_still_has_its_axes_and_its_table():
    made = chart([[None, None]])
    assert made.lines[0].markers == () and made.lines[0].segments == ()
    assert len(made.y_ticks) >= 2
    assert made.rows == (("1", ""), ("2", ""))


def test_the_table_has_a_row_per_x_label_and_a_column_per_series_in_order():
    made = line_chart(
        title="Places",
        x_title="Round",
        y_title="Place",
        x_labels=["1", "2", "3"],
        series=[Series("Анна", [2, 1, 1]), Series("Борис", [1, 2, 2.5])],
    )
    assert [line.name for line in made.legend] == ["Анна", "Борис"]
    assert made.rows == (("1", 2, 1), ("2", 1, 2), ("3", 1, 2.5))


def test_every_series_has_its_own_colour_marker_and_dash_next_to_the_others():
    made = chart([[n, n + 1] for n in range(8)])
    styles = [(line.colour, line.shape, line.dash) for line in made.lines]
    assert len({colour for colour, _, _ in styles}) == 8
    assert len({shape for _, shape, _ in styles}) == 8
    for one, other in zip(styles, styles[1:], strict=False):
        assert one[2] != other[2]  # neighbours differ in dash too


@pytest.mark.parametrize("colour", COLOURS)
def test_each_series_colour_has_a_contrast_of_3_to_1_on_the_page(colour):
    for background in BACKGROUNDS:
        assert contrast(colour, background) >= 3


def test_the_page_backgrounds_the_colours_are_checked_against_are_the_stylesheets():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/css/app.css").read_text("utf-8")
    assert "background: #f3f0e8" in css  # the page
    assert re.search(r"\.panel \{ background: #fff;", css)  # a panel, where charts stand


def test_every_coordinate_has_at_most_one_decimal():
    made = chart([[1 / 3, 2 / 3, 10 / 7], [0.123, None, 9.876]])
    coordinates = [made.left, made.top, made.right, made.bottom, made.x_label_y]
    coordinates += [t.at for t in made.y_ticks + made.x_ticks]
    coordinates += [*made.x_title_at, *made.y_title_at]
    for line in made.lines:
        coordinates += [c for s in line.segments for pair in s.split() for c in pair.split(",")]
        for p in line.markers:
            coordinates += [p.x, p.y, *re.findall(r"-?[\d.]+", p.path)]
    assert all(COORDINATE.fullmatch(c) for c in coordinates), coordinates


def test_many_x_labels_show_only_as_many_as_fit_the_first_and_the_last_among_them():
    labels = [str(n) for n in range(1, 41)]
    made = chart([list(range(40))], labels=labels)
    shown = [tick.value for tick in made.x_ticks]
    assert 3 <= len(shown) <= 12
    assert shown[0] == "1" and shown[-1] == "40"
    positions = [float(tick.at) for tick in made.x_ticks]
    gaps = [b - a for a, b in zip(positions, positions[1:], strict=False)]
    assert min(gaps) >= 2 * 0.6 * made.font  # two digits' width apart at least
    assert [tick.value for tick in chart([[1] * 8]).x_ticks] == [str(n) for n in range(1, 9)]


def test_a_series_with_too_few_or_too_many_values_is_refused():
    with pytest.raises(ValueError, match="values for"):
        line_chart(
            title="t", x_title="x", y_title="y", x_labels=["1", "2"], series=[Series("a", [1])]
        )
