"""``tournament import`` given a hostile document: every field out of its range, names the
database cannot hold or that name one player twice, options a table of the document cannot
play, and any JSON value in any field. The command refuses each with one line naming the
field and exit status 2 (a rule the rounds break: 1), and writes nothing; it never ends in a
traceback (docs/rules/tournaments.md, "Commands")."""

import copy
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from club.models import AuditEntry, Player
from tests.support import DOCUMENTS
from tests.support.commands import lines, run, write
from tournaments import document
from tournaments.models import Bye, Entrant, Round, RoundTable, SheetRow, TableSeat, Tournament

pytestmark = pytest.mark.django_db

MODELS = (Tournament, Player, Entrant, Round, RoundTable, TableSeat, SheetRow, Bye, AuditEntry)


def base() -> dict:
    """Фантан, seven players: tables of four and of three, two rounds, every field given."""
    doc = json.loads((DOCUMENTS / "fantan-seven-cards.json").read_text(encoding="utf-8"))
    return {
        **doc,
        "date": "2026-07-04",
        "bye_points": 3,
        "order": ["match_points", "points", "opponents", "wins"],
    }


def counts() -> list[int]:
    return [model.objects.count() for model in MODELS]


def renamed(doc: dict, old: str, new: str) -> dict:
    return json.loads(json.dumps(doc, ensure_ascii=False).replace(f'"{old}"', f'"{new}"'))


def changed(**fields):
    return lambda doc: {**doc, **fields}


def with_options(**options):
    return lambda doc: {**doc, "options": {**doc["options"], **options}}


def with_player(name: str):
    return lambda doc: {**doc, "players": [*doc["players"], name]}


def import_refused(path: Path) -> str:
    """The command refuses the document as not a tournament document, writing nothing: its
    one line on standard error, after the file's name."""
    before = counts()
    code, out, err = run("tournament", "import", str(path))
    assert (code, out) == (2, ""), err
    assert "Traceback" not in err
    assert len(lines(err)) == 1, err
    prefix = f"{path}: not a tournament document: "
    assert lines(err)[0].startswith(prefix), err
    assert counts() == before
    return lines(err)[0].removeprefix(prefix)


@pytest.mark.parametrize(
    "change, field",
    [
        (changed(rounds_planned=40000), "rounds_planned"),
        (changed(rounds_planned=101), "rounds_planned"),
        (changed(seed=2**70), "seed"),
        (changed(seed=-(2**70)), "seed"),
        (changed(seed=2**63), "seed"),
        (changed(bye_points=1e7), "bye_points"),
        (changed(bye_points=1e308), "bye_points"),
        (changed(bye_points=10000), "bye_points"),
        (changed(bye_points=1.125), "bye_points"),  # kept to the hundredth, it would change
        (changed(tournament="К" * 10_000), "tournament"),
        (changed(tournament="К" * 201), "tournament"),
        (lambda doc: renamed(doc, "Алла", "А" * 200), "players"),
        (lambda doc: renamed(doc, "Алла", "А" * 61), "players"),
        (lambda doc: renamed(doc, "Алла", "ß" * 40), "players"),  # "ss" × 40 folded
        (with_player("алла"), "players"),
        (with_player("АЛЛА"), "players"),
        (with_player("Алла "), "players"),
        (lambda doc: renamed(with_player("frank")(doc), "Алла", "Frank"), "players"),
        (lambda doc: renamed(with_player("ｆｒａｎｋ")(doc), "Алла", "Frank"), "players"),
        (with_options(start_rank="2"), "options"),  # the document has tables of three
    ],
)
def test_a_field_out_of_its_range_is_refused_by_name_and_nothing_is_written(
    change, field, tmp_path
):
    reason = import_refused(write(tmp_path / "doc.json", change(base())))
    assert reason.startswith(field), reason


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "1e400"])
def test_a_number_json_cannot_hold_is_refused(constant, tmp_path):
    text = json.dumps(base(), ensure_ascii=False).replace('"seed": 20260704', f'"seed": {constant}')
    assert constant in text
    reason = import_refused(write(tmp_path / "doc.json", text))
    assert reason.startswith(("not JSON", "seed")), reason
    bye = json.dumps(base(), ensure_ascii=False).replace(
        '"bye_points": 3', f'"bye_points": {constant}'
    )
    assert constant in bye
    reason = import_refused(write(tmp_path / "bye.json", bye))
    assert reason.startswith(("not JSON", "bye_points")), reason


def test_the_limits_are_the_databases_and_a_document_at_every_limit_is_stored_as_written(
    tmp_path,
):
    assert document.TOURNAMENT_NAME_LENGTH == Tournament._meta.get_field("name").max_length
    assert document.PLAYER_NAME_LENGTH == Player._meta.get_field("name").max_length
    assert document.PLAYER_NAME_LENGTH == Player._meta.get_field("key").max_length
    assert document.MOST_ROUNDS <= 2**15 - 1  # a round's number is a small integer
    assert document.MOST_BYE_POINTS < 10**4  # four digits before the point, two after
    doc = renamed(base(), "Алла", "А" * 60)
    doc.update(
        tournament="К" * 200,
        rounds_planned=100,
        seed=2**63 - 1,
        bye_points=9999.99,
        options={**doc["options"], "start_rank": "3"},
    )
    code, out, err = run("tournament", "import", str(write(tmp_path / "doc.json", doc)))
    assert code == 0, err
    tournament = Tournament.objects.get(key=json.loads(out)["tournament"])
    assert (tournament.name, tournament.rounds_planned, tournament.seed) == (
        "К" * 200,
        100,
        2**63 - 1,
    )
    assert str(tournament.bye_points) == "9999.99"
    assert Player.objects.filter(name="А" * 60).exists()
    doc["seed"] = -(2**63)
    doc["bye_points"] = 0
    code, out, err = run("tournament", "import", str(write(tmp_path / "doc.json", doc)))
    assert code == 0, err


# -- any JSON value in any field ---------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["", " ", "Алла", "alla", "2", "8", "fantan", "swiss", "2025-02-30"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
TOP = (*document.FIELDS, "deals")
INSIDE = (  # paths into the rounds: a table's players and rows, a row's fields
    ("rounds", 0),
    ("rounds", 0, "tables"),
    ("rounds", 0, "byes"),
    ("rounds", 0, "tables", 1),
    ("rounds", 0, "tables", 1, "players"),
    ("rounds", 0, "tables", 1, "players", 0),
    ("rounds", 0, "tables", 1, "rows"),
    ("rounds", 0, "tables", 1, "rows", 0),
    ("rounds", 0, "tables", 1, "rows", 0, "finish_order"),
    ("rounds", 0, "tables", 1, "rows", 0, "cards_left"),
    ("rounds", 0, "tables", 1, "rows", 0, "scores"),
    ("options", "start_rank"),
    ("options", "premiums"),
    ("options", "scoring"),
    ("players", 0),
    ("order", 0),
)


def put(doc: dict, path: tuple, value) -> dict:
    doc = copy.deepcopy(doc)
    where = doc
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return doc


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    path=st.sampled_from([(field,) for field in TOP] + list(INSIDE)),
    value=JSON_VALUES,
    drop=st.booleans(),
)
@example(path=("players",), value=[*base()["players"], "АЛЛА"], drop=False)
@example(path=("seed",), value=2**70, drop=False)
def test_any_json_value_in_any_field_is_imported_or_refused_in_one_line(path, value, drop):
    doc = put(base(), path, value)
    if drop and len(path) == 1:
        doc.pop(path[0])
    before = counts()
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "doc.json"
        file.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        code, out, err = run("tournament", "import", str(file))
    assert code in (0, 1, 2), err  # 1: the rounds break a rule (a player renamed, say)
    assert "Traceback" not in err
    if code == 0:
        assert json.loads(out)["tournament"]
    else:
        assert out == "" and len(lines(err)) == 1, err
        assert counts() == before
