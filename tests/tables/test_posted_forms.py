"""Whatever a turn's form posts, for every game: either it is exactly the form of one move the
table offers now, and that move is made, or it is refused with a 4xx and the deal unchanged.
Forms are made from the table's own moves, then damaged: a field dropped, added, changed,
posted twice, or taken from another move."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry, selectors, services
from games.engine import IllegalAction
from games.engine.cards import CODES
from tests.support.hotseat import HTMX, act, alert, current, stamp, unchanged, url

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]

# every game's move fields, and one that is nobody's
NAMES = ("card", "pass", "call", "say", "draw", "end", "discard", "lay", "square", "place", "x")
JUNK = ("", "1", "0", "01", " 1", "-1", "7", "A", "9", "Z", "ZZ", "<script>", "true", "psst")
DAMAGES = ("drop", "add", "change", "twice", "borrow")


def offered(state) -> list[dict]:
    """The moves the screen offers the seat to act: his steps, and the actions that need no
    step first."""
    moves = []
    for action in state.steps() + state.legal_actions():
        if not state.is_step(action):
            try:
                state.check_steps(action)
            except IllegalAction:
                continue
        moves.append(action)
    return moves


def form_of(moves, action: dict) -> dict[str, str]:
    return {name: str(value) for name, value in moves.fields(action).items()}


def named(state, moves, posted: dict[str, list[str]]) -> dict | None:
    """The move the form names, as the log then keeps it: an offered move whose form it is
    (a call's announcement is the player's own text, and may be left out; an ace to nine
    may leave out the place that is its own); None if it names none."""
    if any(len(values) != 1 for values in posted.values()):
        return None
    form = {name: values[0] for name, values in posted.items()}
    found = []
    for action in offered(state):
        fields = form_of(moves, action)
        if "say" in fields:  # a call
            if form.keys() <= {"call", "say"} and form.get("call") == fields["call"]:
                found.append(state.canonical({**action, "say": form.get("say", "")}))
            continue
        forms = [fields]
        if "lay" in action and "place" not in action:  # an ace to nine, on its own place
            forms.append({k: v for k, v in fields.items() if k != "place"})
        if form in forms:
            found.append(action)
    assert len(found) <= 1, f"one form, two moves: {found}"
    return found[0] if found else None


def prepared(table, host, turns: int, step: bool):
    """The table after ``turns`` turns through the services, the next player's hand shown,
    and his step taken (Леопард's draw) when ``step`` asks."""
    for choose in range(turns):
        if current(table).is_over:
            break
        act(table, choose=choose, user=host)
    deal = current(table)
    hotseat = selectors.load(deal)
    if hotseat.handoff:
        deal = services.reveal(
            deal=deal, seat=hotseat.state.to_act, expected_version=deal.version, user=host
        )
        deal.table = table
        hotseat = selectors.load(deal)
    steps = hotseat.state.steps()
    if step and steps:
        deal = services.play(
            deal=deal,
            seat=steps[0]["seat"],
            action={k: v for k, v in steps[0].items() if k != "seat"},
            expected_version=deal.version,
            user=host,
        )
    return current(table)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_posted_form_makes_exactly_the_one_offered_move_it_names_or_changes_nothing(
    host_client, host, players, game, data
):
    rules = registry.rules(game)
    table = services.start_table(
        user=host,
        game=game,
        players=players[: rules.seats(rules.parse_options({}))],
        options={},
        seed=data.draw(st.integers(0, 2**16), label="seed"),
    )
    before = prepared(
        table, host, data.draw(st.integers(0, 6), label="turns"), data.draw(st.booleans())
    )
    state = selectors.load(before).state
    moves = registry.game(game).moves
    choices = offered(state)
    assert choices, "the deal is still being played"
    values = st.one_of(
        st.sampled_from(JUNK),
        st.sampled_from(CODES),
        st.sampled_from(sorted({v for a in choices for v in form_of(moves, a).values()})),
    )
    posted = {k: [v] for k, v in form_of(moves, data.draw(st.sampled_from(choices))).items()}
    for damage in data.draw(st.lists(st.sampled_from(DAMAGES), max_size=3), label="damages"):
        name = data.draw(st.sampled_from(sorted(posted) or NAMES))
        if damage == "drop":
            posted.pop(name, None)
        elif damage == "add":
            posted[data.draw(st.sampled_from(NAMES))] = [data.draw(values)]
        elif damage == "change":
            posted[name] = [data.draw(values)]
        elif damage == "twice":
            posted[name] = posted.get(name, []) + [data.draw(values)]
        else:  # a field of another offered move
            other = form_of(moves, data.draw(st.sampled_from(choices)))
            borrowed = data.draw(st.sampled_from(sorted(other)))
            posted[borrowed] = [other[borrowed]]
    expected = named(state, moves, posted)
    response = host_client.post(
        url(table, "act"), {**stamp(before, seat=state.to_act), **posted}, **HTMX
    )
    if expected is None:
        assert 400 <= response.status_code < 500, f"{posted} was taken"
        assert alert(response)
        unchanged(table, before)
    else:
        assert response.status_code == 200, f"{posted}: {alert(response)}"
        after = current(table)
        assert after.version == before.version + 1
        assert selectors.load(after).actions[-1] == expected
