"""The draft round says how good its seating is: each table names the players who met before
and in which rounds, the round and the tournament count their repeats, the fewest possible
is given where the bound rules the rest out, and a swap's effect on the repeats is shown
before it is made, changing nothing."""

import json
import re
from html import unescape

import pytest

from club.models import AuditEntry
from club.roles import DIRECTOR
from tests.support.accounts import name_official, user_in
from tests.support.tournaments import enter, import_text, new_tournament
from tournaments.models import Bye, Entrant, Round, RoundTable, TableSeat
from tournaments.run import draft_repeats, draft_selectors
from tournaments.run import services as run_services
from tournaments.seating import Round as Seating

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
EIGHT = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"]


def words(response) -> str:
    """The page's text as it reads: tags dropped, spaces collapsed."""
    html = re.sub(r"<[^>]+>", "", response.content.decode())
    return " ".join(unescape(html).split())


def run_url(tournament, what=""):
    return f"/tournaments/{tournament.key}/run/{what}"


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


def eight_at_two_tables(director, draft):
    """Eight players, rounds 1 and 2 released as the document seats them, and round 3 a
    draft seated by hand (tables of names):

    round 1: Анна Борис Вера Глеб | Дарья Егор Жанна Зоя
    round 2: Анна Борис Дарья Егор | Вера Глеб Жанна Зоя
    """
    tournament = import_text(
        json.dumps(
            {
                "tournament": "Восемь",
                "game": "variety",
                "options": {"cycle": "short"},
                "rounds_planned": 4,
                "players": EIGHT,
                "rounds": [
                    {"tables": [{"players": EIGHT[:4]}, {"players": EIGHT[4:]}]},
                    {
                        "tables": [
                            {"players": ["Анна", "Борис", "Дарья", "Егор"]},
                            {"players": ["Вера", "Глеб", "Жанна", "Зоя"]},
                        ]
                    },
                ],
            }
        )
    )
    name_official(tournament, director, role="director")
    entrants = {e.player.name: e for e in tournament.entrants.select_related("player")}
    round_ = Round.objects.create(tournament=tournament, number=3, released=False)
    for number, names in enumerate(draft, start=1):
        table = RoundTable.objects.create(round=round_, number=number)
        for position, name in enumerate(names):
            TableSeat.objects.create(table=table, position=position, entrant=entrants[name])
    return tournament, entrants


DRAFT = [["Анна", "Борис", "Жанна", "Зоя"], ["Вера", "Глеб", "Дарья", "Егор"]]


# -- the counts, pure -------------------------------------------------------------------------


def test_each_pair_of_a_draft_table_that_met_before_is_listed_with_its_rounds():
    history = [Seating([[1, 2, 3, 4], [5, 6, 7, 8]]), Seating([[1, 2, 5, 6], [3, 4, 7, 8]])]
    found = draft_repeats.draft_repeats(history, Seating([[1, 2, 7, 8], [3, 4, 5, 6]]))
    assert [[(r.first, r.second, r.rounds) for r in table] for table in found.tables] == [
        [(1, 2, (1, 2)), (7, 8, (1, 2))],
        [(3, 4, (1, 2)), (5, 6, (1, 2))],
    ]
    # the rounds before: 1-2, 5-6, 3-4, 7-8 met a second time (4); the draft adds 4 more
    assert (found.before, found.round_total, found.total) == (4, 4, 8)


def test_a_first_round_has_no_repeats_and_a_swap_preview_counts_the_swapped_round():
    assert draft_repeats.draft_repeats([], Seating([[1, 2, 3, 4]], [5])).total == 0
    draft = Seating([[1, 2, 3, 4], [5, 6, 7, 8]], [9])
    assert draft_repeats.swapped(draft, 1, 9) == Seating([[9, 2, 3, 4], [5, 6, 7, 8]], [1])
    assert draft_repeats.swapped(draft, 1, 5) == Seating([[5, 2, 3, 4], [1, 6, 7, 8]], [9])
    assert draft_repeats.swapped(draft, 1, 42) == draft  # not in the round: no swap


# -- the director's page ------------------------------------------------------------------------


def test_the_draft_lists_each_tables_repeats_and_the_totals_against_hand_counted_meetings(
    client, director
):
    tournament, _ = eight_at_two_tables(director, DRAFT)
    client.force_login(director)
    page = words(client.get(run_url(tournament), **EN))
    draft = page.split("Round 3 draft")[1]
    first, second = draft.split("Table 2")
    assert "2 repeats: Анна and Борис met in rounds 1, 2; Жанна and Зоя met in rounds 1, 2" in first
    assert (
        "2 repeats: Вера and Глеб met in rounds 1, 2; Дарья and Егор met in rounds 1, 2" in second
    )
    # each of the four pairs adds one; the tournament had 4 before (round 2's four pairs)
    assert "This round: 4 repeats; at least 4 unavoidable with 8 players." in draft
    assert "The tournament with this round: 8 repeats." in draft


def test_a_pair_met_once_is_named_with_its_one_round_and_a_table_without_repeats_says_so(
    client, director
):
    draft = [["Анна", "Вера", "Дарья", "Жанна"], ["Борис", "Глеб", "Егор", "Зоя"]]
    tournament, _ = eight_at_two_tables(director, draft)
    client.force_login(director)
    page = words(client.get(run_url(tournament), **EN)).split("Round 3 draft")[1]
    # Анна–Вера round 1, Анна–Дарья round 2, Вера–Жанна round 2, Дарья–Жанна round 1
    assert (
        "4 repeats: Анна and Вера met in round 1; Анна and Дарья met in round 2; "
        "Вера and Жанна met in round 2; Дарья and Жанна met in round 1"
    ) in page
    assert "This round: 8 repeats; at least 4 unavoidable with 8 players." in page
    assert "The tournament with this round: 12 repeats." in page


def test_a_first_round_draft_has_no_repeats_to_list(client, director, players):
    tournament = new_tournament(director)
    enter(tournament, [p.name for p in players], director)
    run_services.draw_round(tournament=tournament, user=director)
    client.force_login(director)
    page = words(client.get(run_url(tournament), **EN))
    assert "This round: 0 repeats." in page and "unavoidable" not in page
    assert "met in round" not in page and "No repeat:" not in page


def test_a_released_round_shows_no_repeats(client, director):
    tournament, _ = eight_at_two_tables(director, DRAFT)
    run_services.release_round(round_=tournament.rounds.get(number=3), user=director)
    client.force_login(director)
    page = words(client.get(run_url(tournament), **EN))
    assert "repeats" not in page.split("Round 3")[1]


def test_the_draft_repeats_read_in_russian(client, director):
    tournament, _ = eight_at_two_tables(director, DRAFT)
    client.force_login(director)
    page = words(client.get(run_url(tournament), **RU))
    assert "2 повтора: Анна и Борис встречались в турах 1, 2" in page
    assert "В этом туре 4 повтора; неизбежно не меньше 4 при 8 игроках." in page
    assert "Всего в турнире с этим туром 8 повторов." in page


# -- the swap's preview -----------------------------------------------------------------------


def preview_url(tournament, number=3):
    return run_url(tournament, f"rounds/{number}/swap-preview")


def everything():
    return (
        sorted(TableSeat.objects.values_list("table_id", "position", "entrant_id")),
        sorted(Bye.objects.values_list("round_id", "entrant_id")),
        AuditEntry.objects.count(),
    )


def test_the_swap_preview_says_what_the_swap_does_to_the_repeats_and_changes_nothing(
    client, director
):
    tournament, entrants = eight_at_two_tables(director, DRAFT)
    client.force_login(director)
    before = everything()
    response = client.get(
        preview_url(tournament),
        {"swap3-first": entrants["Анна"].pk, "swap3-second": entrants["Вера"].pk},
        HTTP_HX_REQUEST="true",
        **EN,
    )
    assert response.status_code == 200
    # Вера Борис Жанна Зоя: Вера–Борис r1, Вера–Жанна r2, Вера–Зоя r2, Жанна–Зоя r1, r2;
    # Анна Глеб Дарья Егор: Анна–Глеб r1, Анна–Дарья r2, Анна–Егор r2, Дарья–Егор r1, r2
    assert words(response) == (
        "After swapping Анна and Вера, repeats this round: 8 (now 4); "
        "in the tournament: 12 (now 8)."
    )
    assert everything() == before
    # the swap itself then does what the preview said
    run_services.swap(
        round_=tournament.rounds.get(number=3),
        first=entrants["Анна"],
        second=entrants["Вера"],
        user=director,
    )
    page = words(client.get(run_url(tournament), **EN))
    assert "This round: 8 repeats" in page and "The tournament with this round: 12 repeats." in page


def test_the_swap_form_asks_for_the_preview_as_its_players_are_picked(client, director):
    tournament, _ = eight_at_two_tables(director, DRAFT)
    client.force_login(director)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert f'hx-get="{preview_url(tournament)}"' in page
    assert 'id="swap-preview-3"' in page


def test_the_swap_preview_in_russian(client, director):
    tournament, entrants = eight_at_two_tables(director, DRAFT)
    client.force_login(director)
    response = client.get(
        preview_url(tournament),
        {"swap3-first": entrants["Анна"].pk, "swap3-second": entrants["Вера"].pk},
        **RU,
    )
    assert words(response) == (
        "Если поменять местами Анна и Вера, повторов в этом туре: 8 (сейчас 4); "
        "в турнире: 12 (сейчас 8)."
    )


def test_a_preview_of_players_not_both_picked_or_not_in_the_round_says_nothing(client, director):
    tournament, entrants = eight_at_two_tables(director, DRAFT)
    other = new_tournament(director)
    (stranger,) = enter(other, ["Чужой"], director)
    client.force_login(director)
    before = everything()
    for query in (
        {},
        {"swap3-first": entrants["Анна"].pk},
        {"swap3-first": entrants["Анна"].pk, "swap3-second": stranger.pk},
        {"swap3-first": "x", "swap3-second": "٣"},
    ):
        response = client.get(preview_url(tournament), query, **EN)
        assert (response.status_code, words(response)) == (200, ""), query
    assert client.get(preview_url(tournament, 9), **EN).status_code == 404
    assert everything() == before


def test_only_the_tournaments_directors_see_the_swap_preview(client, director, django_user_model):
    tournament, entrants = eight_at_two_tables(director, DRAFT)
    query = {"swap3-first": entrants["Анна"].pk, "swap3-second": entrants["Вера"].pk}
    response = client.get(preview_url(tournament), query)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    scorer = user_in(django_user_model, "scorer")
    name_official(tournament, scorer)
    client.force_login(scorer)
    assert client.get(preview_url(tournament), query).status_code == 403
    assert Entrant.objects.filter(tournament=tournament).count() == 8


def test_the_draft_selector_reads_the_rounds_as_seated(director):
    tournament, entrants = eight_at_two_tables(director, DRAFT)
    seated = draft_selectors.seated_rounds(tournament)
    ids = {name: entrant.pk for name, entrant in entrants.items()}
    assert seated.number == 3 and len(seated.history) == 2
    assert seated.draft.tables == [[ids[name] for name in table] for table in DRAFT]
    assert seated.names[ids["Зоя"]] == "Зоя"
