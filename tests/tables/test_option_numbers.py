"""The numbers of a new table's options (Фантан's premiums, Леопард's deals and target): typed
in the digits 0 to 9 only (never ``٣`` for 3), and within the range the game's rules set; a
number outside it, however large, is refused in the rules' words and nothing is made."""

from html import unescape

import pytest

from club.models import AuditEntry, Player
from games.models import Table

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

NOT_DIGITS = ["٨٠٠", "８００", "८००", "8_00", "8e2", "800.0"]
DIGITS_ONLY = "Enter a whole number in the digits 0 to 9."


def made() -> tuple:
    return Table.objects.count(), Player.objects.count(), AuditEntry.objects.count()


def fantan(players, **options) -> dict:
    return {
        "seat_0": players[0].pk,
        "seat_1": players[1].pk,
        "seat_2": players[2].pk,
        "start_rank": "8",
        "until_out": "2",
        "premium_1": "800",
        "premium_2": "500",
        **options,
    }


def leopard(players, **options) -> dict:
    return {"seat_0": players[0].pk, "seat_1": players[1].pk, "match": "deals", **options}


def shown(response, text: str) -> bool:
    return text in unescape(response.content.decode())


@pytest.mark.parametrize("field", ["premium_1", "premium_2"])
@pytest.mark.parametrize("value", NOT_DIGITS)
def test_a_premium_in_other_digits_than_0_to_9_is_refused_at_its_field(
    host_client, players, field, value
):
    before = made()
    response = host_client.post("/tables/new/fantan/", fantan(players, **{field: value}), **EN)
    assert response.status_code == 400
    assert response.context["form"].errors == {field: [DIGITS_ONLY]}
    assert shown(response, DIGITS_ONLY)
    assert made() == before


@pytest.mark.parametrize(
    "premiums, refusal",
    [
        (("10001", "500"), "The first premium must be a whole number from −10000 to 10000."),
        (("800", "-10001"), "The second premium must be a whole number from −10000 to 10000."),
        (("2147483648", "500"), "The first premium must be a whole number from −10000 to 10000."),
        (
            ("800", "1" + "0" * 25),
            "The second premium must be a whole number from −10000 to 10000.",
        ),
    ],
)
def test_a_premium_beyond_the_rules_range_is_refused_in_the_rules_words(
    host_client, players, premiums, refusal
):
    before = made()
    data = fantan(players, premium_1=premiums[0], premium_2=premiums[1], new_3="Ефим")
    data.pop("seat_2")
    data["new_2"] = "Жанна"
    response = host_client.post("/tables/new/fantan/", data, **EN)
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [refusal]
    assert shown(response, refusal)
    assert made() == before  # the new players' names are not kept either


def test_premiums_at_the_ends_of_the_range_make_the_table(host_client, players):
    response = host_client.post(
        "/tables/new/fantan/", fantan(players, premium_1="10000", premium_2="−10000"), **EN
    )
    assert response.status_code == 302
    assert Table.objects.get().options["premiums"] == [10000, -10000]


@pytest.mark.parametrize("plan, value", [("deals", "٣"), ("target", "٣٣"), ("deals", "4_0")])
def test_a_match_in_other_digits_than_0_to_9_is_refused_at_its_field(
    host_client, players, plan, value
):
    before = made()
    data = leopard(players, match=plan, **{plan: value})
    response = host_client.post("/tables/new/leopard/", data, **EN)
    assert response.status_code == 400
    assert response.context["form"].errors == {plan: [DIGITS_ONLY]}
    assert made() == before


@pytest.mark.parametrize("plan", ["deals", "target"])
@pytest.mark.parametrize("value", ["0", "1001", "-5", "9" * 25])
def test_a_match_beyond_the_rules_range_is_refused_at_its_field_in_the_rules_words(
    host_client, players, plan, value
):
    before = made()
    data = leopard(players, match=plan, **{plan: value})
    response = host_client.post("/tables/new/leopard/", data, **EN)
    assert response.status_code == 400
    refusal = f"The {'number of deals' if plan == 'deals' else 'target score'} must be a whole "
    refusal += "number from 1 to 1000."
    assert response.context["form"].errors == {plan: [refusal]}
    assert shown(response, refusal)
    assert made() == before


@pytest.mark.parametrize("plan, value", [("deals", "1000"), ("target", "1000"), ("deals", "1")])
def test_a_match_within_the_rules_range_makes_the_table(host_client, players, plan, value):
    response = host_client.post(
        "/tables/new/leopard/", leopard(players, match=plan, **{plan: value}), **EN
    )
    assert response.status_code == 302
    assert Table.objects.get().options[plan] == int(value)
