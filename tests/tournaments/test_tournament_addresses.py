"""A tournament's address is one a person can read out and type on a phone: its name in Latin
letters (``klubnyy-vecher-2``), or a short ASCII key where the name gives none. A former key
(the addresses tournaments had before, kept by the migration that gave them new ones) leads to
the same page under the key with a permanent redirect; the commands and the live socket accept
it too."""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from club.roles import DIRECTOR
from tests.support.accounts import user_in
from tests.support.commands import run
from tests.support.sockets import ORIGIN, socket
from tests.support.tournaments import example, import_text
from tournaments import services
from tournaments.addresses import slug_of
from tournaments.models import RoundTable, Tournament

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ADDRESS = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
BEFORE = [("tournaments", "0004_version")]


def create(director, name: str) -> Tournament:
    return services.create_tournament(
        user=director,
        name=name,
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=2,
        seating="mixing",
        seed=1,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


# -- a readable address ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_tournament_named_in_cyrillic_has_an_ascii_address(client, director):
    client.force_login(director)
    response = client.post(
        "/tournaments/new/variety/",
        {
            "name": "Клубный вечер",
            "rounds_planned": "3",
            "seating": "mixing",
            "seed": "1",
            "bye_points": "3",
            "order": "default",
            "option-cycle": "short",
        },
        **EN,
    )
    assert response["Location"] == "/tournaments/klubnyy-vecher/run/"
    assert create(director, "Клубный вечер").key == "klubnyy-vecher-2"
    assert create(director, "Клубный  вечер!").key == "klubnyy-vecher-3"
    assert client.get("/tournaments/klubnyy-vecher-2/", **EN).status_code == 200


@pytest.mark.parametrize(
    "name, key",
    [
        ("Осенний кубок", "osenniy-kubok"),
        ("Кубок «Щука и Ёж» 2026", "kubok-shchuka-i-ezh-2026"),
        ("Café Zürich", "cafe-zurich"),
        ("Anna's Cup", "annas-cup"),
        (
            "Осенний кубок клуба имени Менделева 2026 года",
            "osenniy-kubok-kluba-imeni-mendeleva-2026",
        ),
    ],
)
def test_the_address_is_the_name_in_latin_letters_short_and_cut_at_a_word(name, key):
    assert slug_of(name) == key
    assert len(key) <= 40


@pytest.mark.django_db
def test_a_name_that_gives_no_latin_letter_gets_a_short_ascii_key(director):
    keys = {create(director, name).key for name in ("★★★", "★★★", "麻将之夜")}
    assert len(keys) == 3
    for key in keys:
        assert re.fullmatch(r"[a-z2-9]{6}", key), key


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["New", "Players"])
def test_a_tournament_named_like_another_address_keeps_its_own_pages(client, director, name):
    tournament = create(director, name)
    assert tournament.key == f"{name.lower()}-2"
    client.force_login(director)
    for page in ("", "run/", "standings/", "projector/"):
        assert client.get(f"/tournaments/{tournament.key}/{page}", **EN).status_code == 200


# -- a former address --------------------------------------------------------------------------


@pytest.fixture
def moved(db):
    """The five-player Выборы example, as it was kept under its Cyrillic key."""
    tournament = import_text(json.dumps(example("variety-five")))
    tournament.old_key = "осенний-кубок"
    tournament.save()
    return tournament


def public_pages(key: str) -> list[str]:
    return [
        reverse(name, args=args)
        for name, args in [
            ("tournament", [key]),
            ("tournament-round", [key, 2]),
            ("tournament-standings", [key]),
            ("tournament-projector", [key]),
            ("tournament-standings-csv", [key]),
            ("tournament-sheets-csv", [key]),
        ]
    ]


def test_every_page_under_a_former_key_redirects_permanently_to_the_same_page(client, moved):
    for old, new in zip(public_pages(moved.old_key), public_pages(moved.key), strict=True):
        response = client.get(old, **EN)
        assert response.status_code == 301, old
        assert response["Location"] == new
        assert client.get(response["Location"], **EN).status_code == 200
    response = client.get(f"{public_pages(moved.old_key)[0]}?lang=ru&x=1", **EN)
    assert response["Location"] == f"/tournaments/{moved.key}/?lang=ru&x=1"  # the query kept
    # as a browser asks for it: percent-encoded
    assert (
        client.get(
            "/tournaments/%D0%BE%D1%81%D0%B5%D0%BD%D0%BD%D0%B8%D0%B9-%D0%BA%D1%83"
            "%D0%B1%D0%BE%D0%BA/standings/"
        ).status_code
        == 301
    )


def test_the_directors_pages_under_a_former_key_redirect_too(client, moved, director):
    client.force_login(director)
    table = RoundTable.objects.filter(round__tournament=moved).first()
    for page in ("run/", "rounds/1/sheets/", f"tables/{table.pk}/sheet/"):
        response = client.get(f"/tournaments/{moved.old_key}/{page}", **EN)
        assert (response.status_code, response["Location"]) == (
            301,
            f"/tournaments/{moved.key}/{page}",
        ), page
    # a form posted from a page still showing the old address is posted again at the new one
    response = client.post(f"/tournaments/{moved.old_key}/run/draw", **EN)
    assert (response.status_code, response["Location"]) == (
        308,
        f"/tournaments/{moved.key}/run/draw",
    )
    assert moved.rounds.count() == 2  # nothing was done at the old address


def test_a_key_that_is_neither_is_still_404(client, moved):
    assert client.get("/tournaments/осенний-кубок-2/", **EN).status_code == 404


def test_the_commands_take_the_key_or_the_former_key(moved):
    by_key, by_old = (
        run("tournament", "standings", moved.key, "--json"),
        run("tournament", "standings", moved.old_key, "--json"),
    )
    assert by_key[0] == by_old[0] == 0
    assert by_key[1] == by_old[1] and json.loads(by_key[1])
    assert (
        run("tournament", "export", moved.old_key)[1] == run("tournament", "export", moved.key)[1]
    )


# The socket's answer, not the layer, is under test: the in-memory layer keeps it free of
# the Redis layer's ties to the event loops earlier tests left behind.
@override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}})
@pytest.mark.django_db(transaction=True)
def test_a_page_opened_under_a_former_key_still_follows_the_tournament_live():
    tournament = import_text(json.dumps(example("variety-five")))
    Tournament.objects.filter(pk=tournament.pk).update(old_key="осенний-кубок")

    async def connect():
        communicator = socket("/ws/tournaments/осенний-кубок/", ORIGIN)
        connected, _code = await communicator.connect()
        stamp = json.loads(await communicator.receive_from())["stamp"] if connected else None
        await communicator.disconnect()
        return connected, stamp

    version = Tournament.objects.get(pk=tournament.pk).version
    assert async_to_sync(connect)() == (True, [version])


# -- the migration -----------------------------------------------------------------------------


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def leaf():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_tournament_an_ascii_key_and_keeps_the_old_one(client):
    """Tournaments of the Cyrillic keys the old addresses had (one numbered, one already a
    Latin slug, one of no Latin letter at all) get readable keys; every old address then
    redirects to its tournament's new one; and going back restores the old keys."""
    old = migrate(BEFORE)
    made = old.get_model("tournaments", "Tournament").objects
    common = {
        "game": "variety",
        "options": {"cycle": "short"},
        "rounds_planned": 1,
        "seating": "mixing",
        "seed": 1,
        "order": ["match_points"],
    }
    rows = {
        "клубный-вечер": made.create(key="клубный-вечер", name="Клубный вечер", **common),
        "клубный-вечер-2": made.create(key="клубный-вечер-2", name="Клубный вечер", **common),
        "spring-cup": made.create(key="spring-cup", name="Spring cup", **common),
        "klubnyy-vecher": made.create(key="klubnyy-vecher", name="Klubnyy vecher", **common),
        "звёзды_2": made.create(key="звёзды_2", name="Звёзды", **common),
        "★": made.create(key="★", name="★", **common),
    }
    try:
        migrate(leaf())
        keys = dict(Tournament.objects.values_list("pk", "key"))
        olds = dict(Tournament.objects.values_list("pk", "old_key"))
        assert all(ADDRESS.fullmatch(key) for key in keys.values()), keys
        assert len(set(keys.values())) == len(keys)
        by_old = {old_key: rows[old_key].pk for old_key in rows}
        # the Latin ones stay as they were; the others get the name's, numbered past them
        assert keys[by_old["spring-cup"]] == "spring-cup" and olds[by_old["spring-cup"]] is None
        assert keys[by_old["klubnyy-vecher"]] == "klubnyy-vecher"
        assert {keys[by_old["клубный-вечер"]], keys[by_old["клубный-вечер-2"]]} == {
            "klubnyy-vecher-2",
            "klubnyy-vecher-3",
        }
        assert keys[by_old["звёзды_2"]] == "zvezdy"
        assert re.fullmatch(r"[a-z2-9]{6}", keys[by_old["★"]])
        for old_key in ("клубный-вечер", "клубный-вечер-2", "звёзды_2", "★"):
            assert olds[by_old[old_key]] == old_key
            response = client.get(f"/tournaments/{old_key}/standings/")
            assert (response.status_code, response["Location"]) == (
                301,
                f"/tournaments/{keys[by_old[old_key]]}/standings/",
            )
        created = dict(Tournament.objects.values_list("pk", "created_at"))
        for pk, date in Tournament.objects.values_list("pk", "date"):
            assert date == timezone.localdate(created[pk])  # the day it was created

        migrate(BEFORE)  # and back: the old keys again
        back = migrate(BEFORE).get_model("tournaments", "Tournament").objects
        assert dict(back.values_list("pk", "key")) == {row.pk: key for key, row in rows.items()}
    finally:
        migrate(leaf())
