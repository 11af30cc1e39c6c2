"""A player's name is kept in one Unicode form, and a name that looks like another player's
is refused, naming that player, on every path that names a player: adding one, a member's
new name, a new table's seat, a tournament's entry and an imported tournament document.
A name that only resembles another ("Анни" beside "Анна") is still a player of its own."""

import html
import json
import re
import unicodedata

import pytest

from club import members, names
from club.models import AuditEntry, Player
from club.roles import PLAYER
from club.services import Refused, add_player
from tests.support import DOCUMENTS
from tests.support.accounts import user_in
from tests.support.commands import run
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
CYRILLIC_A_LICE = "\u0410lice"  # "Аlice": a Cyrillic А, then Latin letters
LATIN_A_NNA = "Aнна"  # a Latin A, then Cyrillic letters
FULL_WIDTH_ALICE = "Ａｌｉｃｅ"
NFC_ANDREY = unicodedata.normalize("NFC", "Андрей")
NFD_ANDREY = unicodedata.normalize("NFD", "Андрей")


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return html.unescape(" ".join(text.strip() for text in found))


def club() -> list[tuple]:
    return sorted(Player.objects.values_list("pk", "name", "key", "look"))


def looks_like(name: str, player: str) -> str:
    return (
        f"{name} looks like the name of the club player {player}: choose a name that tells "
        "them apart."
    )


@pytest.mark.parametrize(
    "existing, lookalike",
    [("Alice", CYRILLIC_A_LICE), ("Анна", LATIN_A_NNA), ("Ivan", "lvan")],
)
def test_a_name_that_looks_like_another_players_is_refused_naming_him(existing, lookalike):
    add_player(name=existing)
    before = club(), AuditEntry.objects.count()
    with pytest.raises(Refused) as refused:
        add_player(name=lookalike)
    assert str(refused.value) == looks_like(lookalike, existing)
    assert (club(), AuditEntry.objects.count()) == before


@pytest.mark.parametrize(
    "existing, typed",
    [("Alice", FULL_WIDTH_ALICE), (NFC_ANDREY, NFD_ANDREY), (NFD_ANDREY, NFC_ANDREY)],
)
def test_the_same_name_in_another_unicode_form_is_the_same_player(existing, typed):
    """Full-width letters are the plain ones, a decomposed й the composed one: the name is
    kept in NFKC, and typing it another way seats the player who has it."""
    first = add_player(name=existing)
    assert first.name == unicodedata.normalize("NFKC", existing)
    assert add_player(name=typed) == first
    assert Player.objects.count() == 1


def test_a_name_that_only_resembles_another_is_a_player_of_its_own():
    anna, anni = add_player(name="Анна"), add_player(name="Анни")
    assert anna != anni and {p.name for p in Player.objects.all()} == {"Анна", "Анни"}


def test_a_player_named_before_the_check_keeps_his_name_and_is_found_by_it():
    """A player stored before names were kept in NFKC (his name decomposed): the same name
    typed composed is him, not a refusal and not a second player."""
    old = add_player(name="Лев")
    Player.objects.filter(pk=old.pk).update(
        name=NFD_ANDREY, key=NFD_ANDREY.casefold(), look=names.look(NFD_ANDREY)
    )
    old.refresh_from_db()
    assert add_player(name=NFC_ANDREY) == old
    assert Player.objects.count() == 1


# -- a member's new name ------------------------------------------------------------------


@pytest.fixture
def member_client(client, django_user_model):
    member = user_in(django_user_model, "member", PLAYER)
    Player.objects.create(name="Глеб", user=member)
    client.force_login(member)
    return client


SAME_NAME = "The club already has a player of that name."


@pytest.mark.parametrize(
    "existing, lookalike, message",
    [
        ("Alice", CYRILLIC_A_LICE, looks_like(CYRILLIC_A_LICE, "Alice")),
        ("Анна", LATIN_A_NNA, looks_like(LATIN_A_NNA, "Анна")),
        ("Alice", FULL_WIDTH_ALICE, SAME_NAME),
        (NFC_ANDREY, NFD_ANDREY, SAME_NAME),
    ],
)
def test_a_member_cannot_rename_himself_to_look_like_another_player(
    member_client, existing, lookalike, message
):
    Player.objects.create(name=existing)
    before = club()
    response = member_client.post("/account/", {"name": lookalike}, **EN)
    assert response.status_code == 400 and alert(response) == message
    assert club() == before


def test_a_member_renames_himself_to_a_name_that_only_resembles_another(member_client):
    Player.objects.create(name="Анна")
    response = member_client.post("/account/", {"name": f"  Анни  {FULL_WIDTH_ALICE} "})
    assert response.status_code == 302
    assert Player.objects.filter(name="Анни Alice").exists()


def test_a_new_members_player_cannot_look_like_another(django_user_model):
    director = django_user_model.objects.create_superuser("boss", password="pw-for-tests-only")
    Player.objects.create(name="Alice")
    before = club()
    with pytest.raises(Refused) as refused:
        members.invite(username="alice2", player=CYRILLIC_A_LICE, roles=[PLAYER], by=director)
    assert "Alice" in str(refused.value)
    assert club() == before
    assert not django_user_model.objects.filter(username="alice2").exists()


def test_the_admin_refuses_a_player_whose_name_looks_like_another(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss"))
    Player.objects.create(name="Анна")
    before = club()
    response = client.post("/admin/club/player/add/", {"name": LATIN_A_NNA}, **EN)
    assert response.status_code == 200
    assert looks_like(LATIN_A_NNA, "Анна") in html.unescape(response.content.decode())
    assert club() == before


def test_the_admin_still_edits_a_player_named_alike_before_the_check(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss")
    client.force_login(boss)
    alice = Player.objects.create(name="Alice")
    lookalike = Player.objects.create(name="Lev")
    Player.objects.filter(pk=lookalike.pk).update(
        name=CYRILLIC_A_LICE, key=CYRILLIC_A_LICE.casefold(), look=names.look(CYRILLIC_A_LICE)
    )
    response = client.post(
        f"/admin/club/player/{alice.pk}/change/", {"name": "Alice", "user": boss.pk}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.user == boss


# -- a new table's seats ------------------------------------------------------------------


def test_a_new_table_refuses_a_seat_whose_name_looks_like_a_club_players(host_client, players):
    Player.objects.create(name="Alice")
    before = club()
    response = host_client.post(
        "/tables/new/leopard/",
        {
            "seat_0": players[0].pk,
            "new_1": CYRILLIC_A_LICE,
            "match": "target",
            "target": "33",
            "deals": "4",
        },
        **EN,
    )
    assert response.status_code == 400
    assert looks_like(CYRILLIC_A_LICE, "Alice") in html.unescape(response.content.decode())
    assert club() == before


# -- tournaments --------------------------------------------------------------------------


def tournament(user) -> Tournament:
    return tournament_services.create_tournament(
        user=user,
        name="Кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=2,
        seating="mixing",
        seed=3,
        bye_points=3,
        order=["points"],
    )


def test_an_entry_whose_name_looks_like_a_club_players_is_refused(host, players):
    cup = tournament(host)
    before = club()
    with pytest.raises(tournament_services.EntryRefused) as refused:
        run_services.add_entrants(tournament=cup, players=["Дарья", LATIN_A_NNA], user=host)
    assert refused.value.index == 1
    assert str(refused.value) == looks_like(LATIN_A_NNA, "Анна")
    assert club() == before and not cup.entrants.exists()


def test_an_entry_in_another_unicode_form_enters_the_club_player(host):
    andrey = add_player(name=NFC_ANDREY)
    cup = tournament(host)
    [entrant] = run_services.add_entrants(tournament=cup, players=[f" {NFD_ANDREY} "], user=host)
    assert entrant.player == andrey and Player.objects.count() == 1


def test_an_imported_document_whose_player_looks_like_a_club_players_is_refused(tmp_path):
    """The command says which name and which player, without a traceback, and imports
    nothing."""
    Player.objects.create(name="Kостя")  # a Latin K
    before = club()
    doc = json.loads((DOCUMENTS / "leopard-swiss-four.json").read_text(encoding="utf-8"))
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    code, out, err = run("tournament", "import", str(path))
    assert code == 1 and out == ""
    assert looks_like("Костя", "Kостя") in err and "Traceback" not in err
    assert club() == before and not Tournament.objects.exists()


# -- players named before -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_players_named_alike_before_the_check_both_stay_through_the_migration():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    def migrate(targets):
        executor = MigrationExecutor(connection)
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    before = [("club", "0002_organiser")]
    old = migrate(before)
    made = old.get_model("club", "Player").objects
    made.create(name="Alice", key="alice")
    made.create(name=CYRILLIC_A_LICE, key=CYRILLIC_A_LICE.casefold())
    made.create(name="Анна", key="анна")
    try:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        looks = dict(Player.objects.values_list("name", "look"))
        assert set(looks) == {"Alice", CYRILLIC_A_LICE, "Анна"}
        assert looks["Alice"] == looks[CYRILLIC_A_LICE] != looks["Анна"]
        with pytest.raises(Refused):  # and a third "Alice" is refused
            add_player(name="Аlicе")  # Cyrillic А and е
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
