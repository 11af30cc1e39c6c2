"""A member's password change checks his old password as sign-in does: wrong old passwords
count with wrong sign-ins, and after as many as sign-in allows even the right one is refused
for a while, with the sign-in's message; the password stays as it was."""

import pytest
from django.test import Client

from club.models import AuditEntry
from club.roles import PLAYER
from tests.support.accounts import user_in

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
OLD = "pw-for-tests-only"  # tests.support.accounts.user_in's
NEW = "green-lantern-42"
LIMIT = 5  # config.settings.AXES_FAILURE_LIMIT
LOCKED_OUT = "Too many wrong passwords for this name: try again in a quarter of an hour."


@pytest.fixture
def member(django_user_model):
    return user_in(django_user_model, "member", PLAYER)


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


def change(client, old_password: str):
    return client.post(
        "/account/password/",
        {"old_password": old_password, "new_password1": NEW, "new_password2": NEW},
        **EN,
    )


def sign_in(password: str):
    return Client().post("/accounts/login/", {"username": "member", "password": password}, **EN)


def test_after_the_limit_of_wrong_old_passwords_the_right_one_is_refused(member_client, member):
    answers = [change(member_client, f"guess-{n}") for n in range(LIMIT)]
    assert [a.status_code for a in answers] == [400] * (LIMIT - 1) + [429]
    assert "Your old password was entered incorrectly" in answers[0].content.decode()
    response = change(member_client, OLD)
    assert response.status_code == 429 and LOCKED_OUT in response.content.decode()
    member.refresh_from_db()
    assert member.check_password(OLD) and not member.check_password(NEW)
    assert not AuditEntry.objects.filter(verb="member.password").exists()
    assert sign_in(OLD).status_code == 429  # the same lock-out as sign-in's


def test_wrong_old_passwords_count_with_wrong_sign_ins(member_client, member):
    for _ in range(LIMIT - 1):
        assert sign_in("wrong").status_code == 200
    response = change(member_client, "wrong")
    assert response.status_code == 429 and LOCKED_OUT in response.content.decode()
    member.refresh_from_db()
    assert member.check_password(OLD)


def test_a_change_that_succeeds_clears_the_wrong_tries_before_it(member_client, member):
    for _ in range(LIMIT - 1):
        assert change(member_client, "wrong").status_code == 400
    assert change(member_client, OLD).status_code == 302
    member.refresh_from_db()
    assert member.check_password(NEW)
    for _ in range(LIMIT - 1):
        assert sign_in("wrong").status_code == 200
    assert sign_in(NEW).status_code == 302
