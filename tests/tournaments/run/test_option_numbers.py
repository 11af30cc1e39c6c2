"""The game's options on the new-tournament form (Фантан's premiums, Леопард's deals and
target), as the new-table form reads them: the digits 0 to 9 only (never ``٣`` for 3), and
within the range the game's rules set; a number outside it, however large, is refused in the
rules' words and no tournament is made."""

from html import unescape

import pytest

from club.models import AuditEntry
from club.roles import DIRECTOR
from tests.support.accounts import user_in
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DIGITS_ONLY = "Enter a whole number in the digits 0 to 9."
TOO_LARGE = ["2147483648", "-2147483649", "9223372036854775808", "1" + "0" * 25]
FORM = {
    "name": "Осенний кубок",
    "rounds_planned": "3",
    "seating": "mixing",
    "seed": "20261130",
    "bye_points": "3",
    "order": "default",
}


@pytest.fixture
def director(client, django_user_model):
    user = user_in(django_user_model, "director", DIRECTOR)
    client.force_login(user)
    return user


def written() -> tuple:
    return Tournament.objects.count(), AuditEntry.objects.count()


def fantan_form(**fields) -> dict:
    return {
        **FORM,
        "option-start_rank": "8",
        "option-until_out": "2",
        "option-premium_1": "800",
        "option-premium_2": "500",
        "setting_deals": "4",
        **fields,
    }


@pytest.mark.parametrize("field", ["option-premium_1", "option-premium_2"])
@pytest.mark.parametrize("value", ["٨٠٠", "８００", "8_00"])
def test_a_premium_in_other_digits_is_refused_at_its_field(client, director, field, value):
    before = written()
    response = client.post("/tournaments/new/fantan/", fantan_form(**{field: value}), **EN)
    assert response.status_code == 400
    errors = response.context["form"].options_form.errors
    assert errors == {field.removeprefix("option-"): [DIGITS_ONLY]}
    assert DIGITS_ONLY in response.content.decode()
    assert written() == before


@pytest.mark.parametrize(
    "field, value, refusal",
    [
        ("option-premium_1", "10001", "The first premium must be a whole number from"),
        ("option-premium_2", "-10001", "The second premium must be a whole number from"),
        *[("option-premium_1", value, "The first premium must be") for value in TOO_LARGE],
    ],
)
def test_a_premium_beyond_the_rules_range_is_refused_in_the_rules_words(
    client, director, field, value, refusal
):
    before = written()
    response = client.post("/tournaments/new/fantan/", fantan_form(**{field: value}), **EN)
    assert response.status_code == 400
    assert refusal in response.content.decode()
    assert "−10000 to 10000." in response.content.decode()
    assert written() == before


@pytest.mark.parametrize(
    "plan, value, refusal",
    [
        ("deals", "٣", DIGITS_ONLY),
        ("deals", "5000", "The number of deals must be a whole number from 1 to 1000."),
        ("target", "0", "The target score must be a whole number from 1 to 1000."),
        ("target", TOO_LARGE[-1], "The target score must be a whole number from 1 to 1000."),
    ],
)
def test_a_leopard_match_in_other_digits_or_beyond_the_rules_range_is_refused_at_its_field(
    client, director, plan, value, refusal
):
    form = {**FORM, "option-match": plan, f"option-{plan}": value}
    before = written()
    response = client.post("/tournaments/new/leopard/", form, **EN)
    assert response.status_code == 400
    assert response.context["form"].options_form.errors == {plan: [refusal]}
    assert refusal in unescape(response.content.decode())
    assert written() == before
