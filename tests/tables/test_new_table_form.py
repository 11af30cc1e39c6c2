"""The new-table form seats the member who opens it: seat 1 is his club player until he
chooses another, for every game."""

import re

import pytest

from club.models import Player
from games import registry
from games.models import Table

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def chosen(html: str, field: str) -> list[str]:
    """The options shown chosen in a select of the form, by their text."""
    select = re.search(rf'<select name="{field}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r"<option[^>]* selected>([^<]*)</option>", select)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_seat_1_starts_as_the_signed_in_members_club_player(
    client, django_user_model, players, game
):
    member = django_user_model.objects.create_user("boris")
    players[1].user = member
    players[1].save()
    client.force_login(member)
    html = client.get(f"/tables/new/{game}/", **EN).content.decode()
    assert chosen(html, "seat_0") == ["Борис"]
    assert chosen(html, "seat_1") == ["—"]  # the other seats are his to fill


def test_a_member_without_a_club_player_finds_seat_1_empty(host_client, players):
    html = host_client.get("/tables/new/fantan/", **EN).content.decode()
    assert chosen(html, "seat_0") == ["—"]


def test_seat_1_may_still_be_given_to_another(client, django_user_model, players):
    member = django_user_model.objects.create_user("boris")
    players[1].user = member
    players[1].save()
    client.force_login(member)
    response = client.post(
        "/tables/new/fantan/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[2].pk,
            "seat_2": players[1].pk,
            "start_rank": "8",
            "until_out": "1",
            "premium_1": "800",
            "premium_2": "500",
        },
    )
    assert response.status_code == 302
    table = Table.objects.get()
    assert [seat.name for seat in table.seats.all()] == ["Анна", "Вера", "Борис"]


def test_one_person_at_two_seats_is_refused_at_the_top_of_the_form_and_nothing_is_made(
    host_client, players
):
    fantan = {"start_rank": "8", "until_out": "1", "premium_1": "800", "premium_2": "500"}
    for seating in (
        {"seat_0": players[0].pk, "seat_1": players[1].pk, "new_2": "анна"},
        {"seat_0": players[0].pk, "new_1": "Ефим", "new_2": "ЕФИМ"},
    ):
        response = host_client.post("/tables/new/fantan/", {**seating, **fantan}, **EN)
        assert response.status_code == 400
        assert response.context["form"].non_field_errors() == ["A player can take only one seat."]
        assert 'role="alert"' in response.content.decode()
    assert not Table.objects.exists()
    assert not Player.objects.filter(name="Ефим").exists()  # the new name is not kept either
