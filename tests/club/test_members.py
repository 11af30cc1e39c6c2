"""The members without the Django admin: an organiser's members page (invite a member with a
password shown once, link and unlink an account and a club player, a new password), every
member's account page (his password, his name), the header's links; every refusal changes
nothing, and no audit entry, log or later page holds a password."""

import html
import json
import logging
import re

import pytest
from django.conf import global_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import get_hasher
from django.test import Client

from club import members
from club.models import AuditEntry, Player
from club.roles import DIRECTOR, ORGANISER, PLAYER
from club.services import ServiceError
from config import settings as served
from tests.support.accounts import user_in

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
TEST_PASSWORD = "pw-for-tests-only"  # tests.conftest.user_in's


@pytest.fixture
def organiser(django_user_model):
    return user_in(django_user_model, "organiser", ORGANISER)


@pytest.fixture
def member(django_user_model):
    return user_in(django_user_model, "member", PLAYER)


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


def text(response) -> str:
    return response.content.decode()


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', text(response))
    return html.unescape(" ".join(found_text.strip() for found_text in found))


def shown_password(response) -> str:
    found = re.findall(r"<code class=\"password\" data-password>([^<]+)</code>", text(response))
    assert len(found) == 1, text(response)
    return found[0]


def state() -> tuple:
    """Everything a refusal must leave as it was."""
    User = get_user_model()
    return (
        sorted(User.objects.values_list("pk", "username", "password", "is_staff", "is_superuser")),
        sorted(User.groups.through.objects.values_list("user_id", "group__name")),
        sorted(Player.objects.values_list("pk", "name", "key", "user_id")),
        AuditEntry.objects.count(),
    )


def signs_in(username: str, password: str) -> bool:
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302


def invite_data(username="boris", player="", name="", roles=(PLAYER,)) -> dict:
    return {
        "invite-username": username,
        "invite-player": player,
        "invite-name": name,
        "invite-roles": list(roles),
    }


def audit_text() -> str:
    return json.dumps(list(AuditEntry.objects.values("verb", "data")), ensure_ascii=False)


# -- who may open what ----------------------------------------------------------------------


def test_a_visitor_is_sent_to_sign_in_and_others_than_organisers_get_403(
    client, django_user_model, member, players
):
    response = client.get("/members/")
    assert response.status_code == 302 and response.url == "/accounts/login/?next=/members/"
    assert client.get("/account/").url == "/accounts/login/?next=/account/"
    assert client.get("/account/password/").url.startswith("/accounts/login/")
    director = user_in(django_user_model, "director", DIRECTOR)
    staff = user_in(django_user_model, "staff", staff=True)
    before = state()
    assert client.post("/members/invite", invite_data()).status_code == 403
    for user in (member, director, staff):
        client.force_login(user)
        assert client.get("/members/").status_code == 403
        assert client.post("/members/invite", invite_data()).status_code == 403
        for action in ("link", "unlink", "reset", "roles"):
            assert (
                client.post(f"/members/{member.pk}/{action}", {"player": players[0].pk}).status_code
                == 403
            )
    assert state() == before


def test_a_member_sees_no_members_or_admin_link_but_his_account(member_client):
    for path in ("/", "/account/", "/account/password/", "/tournaments/"):
        for language in (EN, RU):
            page = text(member_client.get(path, **language))
            assert 'href="/members/"' not in page and 'href="/admin/"' not in page
            for word in ("Admin", "Members", "Администр", "Django"):
                assert word not in page, (path, word)
            assert '<a href="/account/"' in page and ">member</a>" in page


def test_an_organiser_has_the_members_link_and_only_staff_the_admin_link(
    client, organiser, django_user_model
):
    client.force_login(organiser)
    page = text(client.get("/", **EN))
    assert 'href="/members/">Members</a>' in page
    assert 'href="/admin/"' not in page and "Admin" not in page
    client.force_login(user_in(django_user_model, "staff", staff=True))
    page = text(client.get("/", **EN))
    assert 'href="/admin/">Admin</a>' in page and 'href="/members/"' not in page


def test_the_members_page_lists_accounts_players_roles_and_last_sign_in(
    organiser_client, organiser, member, players
):
    players[0].user = member
    players[0].save()
    organiser.last_login = None
    organiser.save()
    assert signs_in("member", TEST_PASSWORD)
    member.refresh_from_db()
    page = text(organiser_client.get("/members/", **EN))
    row = re.search(rf'<tr id="account-{member.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "member" in row and "Анна" in row and "player" in row and "never" not in row
    row = re.search(rf'<tr id="account-{organiser.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "organiser" in row and "never" in row and "new password" not in row
    assert "Борис, Вера, Глеб" in page  # the players without an account
    assert "Admin" not in page and "Administration" not in page


# -- invite -----------------------------------------------------------------------------------


def test_an_invited_member_signs_in_with_the_password_shown_once_and_kept_hashed(
    organiser_client, organiser, players, caplog
):
    caplog.set_level(logging.DEBUG)
    response = organiser_client.post(
        "/members/invite", invite_data("boris", players[1].pk, roles=[DIRECTOR, PLAYER]), **EN
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    password = shown_password(response)
    assert "shown only this once" in text(response)
    account = get_user_model().objects.get(username="boris")
    assert password not in account.password and account.check_password(password)
    assert account.password.startswith(f"{get_hasher().algorithm}$")
    # (the suite hashes quickly, tests/conftest.py; the served club keeps Django's PBKDF2)
    assert getattr(served, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)[0] == (
        "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    )
    assert set(account.groups.values_list("name", flat=True)) == {DIRECTOR, PLAYER}
    players[1].refresh_from_db()
    assert players[1].user == account
    entry = AuditEntry.objects.get(verb="member.invite")
    assert entry.user == organiser
    assert entry.data == {
        "account": account.pk,
        "username": "boris",
        "player": players[1].pk,
        "name": "Борис",
        "roles": [DIRECTOR, PLAYER],
    }
    assert password not in audit_text() and password not in caplog.text
    # shown once: never again on the page, nor kept in the session
    assert password not in text(organiser_client.get("/members/"))
    assert password not in json.dumps(dict(organiser_client.session))
    assert signs_in("boris", password)
    assert not signs_in("boris", "wrong-" + password)


def test_a_member_is_invited_with_a_new_club_player(organiser_client, players):
    response = organiser_client.post(
        "/members/invite", invite_data("darya", name="  Дарья   Ивановна ")
    )
    assert response.status_code == 200
    player = Player.objects.get(name="Дарья Ивановна")
    assert player.user.username == "darya"
    assert signs_in("darya", shown_password(response))
    assert list(AuditEntry.objects.order_by("pk").values_list("verb", flat=True)) == [
        "player.add",
        "member.invite",
    ]


def test_a_new_name_of_a_player_without_an_account_is_that_player(organiser_client, players):
    response = organiser_client.post("/members/invite", invite_data("vera", name="ВЕРА"))
    assert response.status_code == 200
    players[2].refresh_from_db()
    assert players[2].user.username == "vera" and Player.objects.count() == 4


@pytest.mark.parametrize(
    "data, message",
    [
        (invite_data("member", "0"), "The user name member is taken."),
        (invite_data("MEMBER", "0"), "The user name MEMBER is taken."),
        (invite_data("new", "linked"), "Анна already has an account (member)."),
        (invite_data("new", name="анна"), "Анна already has an account (member)."),
        (invite_data("new", "999999"), "That player is not in the club's list."),
        (invite_data("new", "1; DROP"), "That player is not in the club's list."),
        (invite_data("new", "0", name="Дарья"), "Choose a club player or type a new name."),
        (invite_data("new"), "Choose a club player or type a new name."),
        (invite_data("", "0"), "This field is required."),
        (invite_data("bad\x07name", "0"), "A user name may hold only printable text."),
        (invite_data("bad name", "0"), "A user name may hold only letters, digits"),
        (invite_data("bad\x00name", "0"), "Null characters are not allowed."),
        (invite_data("new", name="Да\x1brья"), "A name may hold only printable text."),
        (invite_data("new", name="Да\x00рья"), "Null characters are not allowed."),
        (invite_data("new", name="Д" * 61), "at most 60 characters"),
        (invite_data("new", "0", roles=["admin"]), "admin is not a role of the club."),
        (invite_data("new", "0", roles=[PLAYER, "superuser"]), "superuser is not a role"),
    ],
)
def test_a_refused_invitation_changes_nothing(organiser_client, member, players, data, message):
    players[0].user = member
    players[0].save()
    if data["invite-player"] == "0":
        data["invite-player"] = str(players[1].pk)
    elif data["invite-player"] == "linked":
        data["invite-player"] = str(players[0].pk)
    before = state()
    response = organiser_client.post("/members/invite", data, **EN)
    assert response.status_code == 400
    assert message in alert(response)
    assert "data-password" not in text(response)
    assert state() == before


def test_the_services_refuse_a_role_and_a_name_the_form_would_not_send(organiser, players):
    before = state()
    with pytest.raises(members.Refused):
        members.invite(username="x", player=players[0], roles=["superuser"], by=organiser)
    with pytest.raises(members.Refused):
        members.invite(username="x", player="\x07", roles=[], by=organiser)
    assert state() == before


# -- link and unlink --------------------------------------------------------------------------


def test_an_account_is_linked_to_a_club_player_and_unlinked(
    organiser_client, organiser, member, players
):
    response = organiser_client.post(f"/members/{member.pk}/link", {"player": players[2].pk})
    assert response.status_code == 302 and response.url == f"/members/#account-{member.pk}"
    players[2].refresh_from_db()
    assert players[2].user == member
    entry = AuditEntry.objects.get(verb="member.link")
    assert entry.user == organiser and entry.data == {
        "account": member.pk,
        "username": "member",
        "player": players[2].pk,
        "name": "Вера",
    }
    response = organiser_client.post(f"/members/{member.pk}/unlink")
    assert response.status_code == 302
    players[2].refresh_from_db()
    assert players[2].user is None
    assert AuditEntry.objects.get(verb="member.unlink").data["player"] == players[2].pk
    assert players[2].seats.count() == 0 and Player.objects.count() == 4  # the player stays


@pytest.mark.parametrize(
    "case, message",
    [
        ("account linked", "member is already linked to Анна."),
        ("player linked", "Борис already has an account (other)."),
        ("forged player", "That player is not in the club's list."),
        ("no player", "Choose a club player."),
        ("unlink unlinked", "organiser is not linked to a club player."),
    ],
)
def test_a_refused_link_or_unlink_changes_nothing(
    organiser_client, organiser, member, django_user_model, players, case, message
):
    players[0].user = member
    players[0].save()
    players[1].user = user_in(django_user_model, "other")
    players[1].save()
    url, data = {
        "account linked": (f"/members/{member.pk}/link", {"player": players[2].pk}),
        "player linked": (f"/members/{organiser.pk}/link", {"player": players[1].pk}),
        "forged player": (f"/members/{organiser.pk}/link", {"player": "424242"}),
        "no player": (f"/members/{organiser.pk}/link", {}),
        "unlink unlinked": (f"/members/{organiser.pk}/unlink", {}),
    }[case]
    before = state()
    response = organiser_client.post(url, data, **EN)
    assert response.status_code == 400 and message in alert(response)
    assert state() == before


def test_an_unknown_account_is_404(organiser_client, players):
    before = state()
    for action in ("link", "unlink", "reset"):
        assert (
            organiser_client.post(
                f"/members/424242/{action}", {"player": players[0].pk}
            ).status_code
            == 404
        )
    assert state() == before


# -- a new password ---------------------------------------------------------------------------


def test_an_organiser_sets_a_new_password_shown_once(organiser_client, organiser, member, caplog):
    caplog.set_level(logging.DEBUG)
    response = organiser_client.post(f"/members/{member.pk}/reset", **EN)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    password = shown_password(response)
    assert "The new password of member" in text(response)
    assert not signs_in("member", TEST_PASSWORD) and signs_in("member", password)
    member.refresh_from_db()
    assert password not in member.password
    entry = AuditEntry.objects.get(verb="member.reset")
    assert entry.user == organiser
    assert entry.data == {"account": member.pk, "username": "member"}
    assert password not in audit_text() and password not in caplog.text


def test_a_new_password_ends_the_members_sessions_and_lifts_a_lock_out(organiser_client, member):
    elsewhere = Client()
    elsewhere.force_login(member)
    for _attempt in range(5):
        Client().post("/accounts/login/", {"username": "member", "password": "wrong"})
    assert not signs_in("member", TEST_PASSWORD)  # locked out
    password = shown_password(organiser_client.post(f"/members/{member.pk}/reset"))
    assert elsewhere.get("/account/").status_code == 302  # signed out there
    assert signs_in("member", password)


def test_signing_out_ends_the_session_for_every_copy_of_its_cookie(member):
    """Without Redis the process also keeps its sessions in memory: a sign-out must end
    the session there too, not only in the database."""
    browser = Client()
    assert (
        browser.post(
            "/accounts/login/", {"username": "member", "password": TEST_PASSWORD}
        ).status_code
        == 302
    )
    copy = Client()
    copy.cookies["sessionid"] = browser.cookies["sessionid"].value
    assert copy.get("/account/").status_code == 200  # the same session, read once more
    assert browser.post("/accounts/logout/").status_code == 302
    response = copy.get("/account/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_organiser_may_not_reset_his_own_or_an_admin_accounts_password(
    organiser_client, organiser, django_user_model
):
    staff = user_in(django_user_model, "staff", staff=True)
    boss = django_user_model.objects.create_superuser("boss", password=TEST_PASSWORD)
    before = state()
    response = organiser_client.post(f"/members/{organiser.pk}/reset", **EN)
    assert response.status_code == 400
    assert "Change your own password on your account page." in alert(response)
    for account in (staff, boss):
        response = organiser_client.post(f"/members/{account.pk}/reset", **EN)
        assert response.status_code == 400
        assert f"Only a superuser may set a new password for {account.username}." in alert(response)
        assert "data-password" not in text(response)
    assert state() == before
    client = Client()
    client.force_login(boss)  # a superuser may
    assert signs_in("staff", shown_password(client.post(f"/members/{staff.pk}/reset")))


def test_a_director_can_neither_set_a_members_password_nor_change_his_roles(
    client, django_user_model, member
):
    director = user_in(django_user_model, "director", DIRECTOR)
    client.force_login(director)
    before = state()
    response = client.post(f"/members/{member.pk}/reset", **EN)
    assert response.status_code == 403 and "data-password" not in text(response)
    response = client.post(f"/members/{member.pk}/roles", {"roles": [DIRECTOR]}, **EN)
    assert response.status_code == 403
    with pytest.raises(ServiceError) as refused:
        members.reset_password(account=member, by=director)
    assert refused.value.status == 403
    with pytest.raises(ServiceError):
        members.set_roles(account=member, roles=[ORGANISER], by=director)
    assert state() == before
    assert signs_in("member", TEST_PASSWORD)


def test_an_organiser_changes_a_members_roles_and_it_is_audited(
    organiser_client, organiser, member
):
    response = organiser_client.post(
        f"/members/{member.pk}/roles", {"roles": [DIRECTOR, PLAYER]}, **EN
    )
    assert response.status_code == 302
    assert set(member.groups.values_list("name", flat=True)) == {DIRECTOR, PLAYER}
    entry = AuditEntry.objects.get(verb="member.roles")
    assert entry.user == organiser
    assert entry.data == {
        "account": member.pk,
        "username": "member",
        "was": [PLAYER],
        "roles": [DIRECTOR, PLAYER],
    }
    page = text(organiser_client.get("/members/", **EN))
    row = re.search(rf'<tr id="account-{member.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "director, player" in row


def test_an_organiser_may_not_change_his_own_roles_nor_an_admins_nor_give_an_unknown_one(
    organiser_client, organiser, member, django_user_model
):
    staff = user_in(django_user_model, "staff", staff=True)
    before = state()
    response = organiser_client.post(f"/members/{organiser.pk}/roles", {"roles": []}, **EN)
    assert response.status_code == 400 and "Another organiser" in alert(response)
    response = organiser_client.post(f"/members/{staff.pk}/roles", {"roles": [ORGANISER]}, **EN)
    assert response.status_code == 400 and "Only a superuser" in alert(response)
    response = organiser_client.post(f"/members/{member.pk}/roles", {"roles": ["boss"]}, **EN)
    assert response.status_code == 400 and "boss is not a role of the club." in alert(response)
    assert state() == before


# -- the forms' guards --------------------------------------------------------------------------


def test_the_posts_refuse_a_get_and_a_missing_csrf_token(organiser, member, players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    for url in (
        "/members/invite",
        f"/members/{member.pk}/link",
        f"/members/{member.pk}/unlink",
        f"/members/{member.pk}/reset",
    ):
        assert client.get(url).status_code == 405
    before = state()
    for url, data in (
        ("/members/invite", invite_data("new", players[1].pk)),
        (f"/members/{member.pk}/link", {"player": players[1].pk}),
        (f"/members/{member.pk}/reset", {}),
    ):
        assert client.post(url, data).status_code == 403
    client.force_login(member)
    assert client.post("/account/", {"name": "Новое имя"}).status_code == 403
    assert (
        client.post(
            "/account/password/",
            {
                "old_password": TEST_PASSWORD,
                "new_password1": "a-new-secret-9",
                "new_password2": "a-new-secret-9",
            },
        ).status_code
        == 403
    )
    assert state() == before


# -- a member's own account -------------------------------------------------------------------


def test_a_member_changes_his_password(member_client, member):
    page = member_client.get("/account/password/", **EN)
    assert page.status_code == 200 and "Change your password" in text(page)
    response = member_client.post(
        "/account/password/",
        {
            "old_password": TEST_PASSWORD,
            "new_password1": "green-lantern-42",
            "new_password2": "green-lantern-42",
        },
    )
    assert response.status_code == 302 and response.url == "/account/?saved=password"
    page = member_client.get(response.url, **EN)  # still signed in here
    assert page.status_code == 200 and "Your password is changed." in text(page)
    assert not signs_in("member", TEST_PASSWORD) and signs_in("member", "green-lantern-42")
    entry = AuditEntry.objects.get(verb="member.password")
    assert entry.user == member and entry.data == {"account": member.pk, "username": "member"}
    assert "green-lantern-42" not in audit_text()


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {
                "old_password": "wrong",
                "new_password1": "green-lantern-42",
                "new_password2": "green-lantern-42",
            },
            "Your old password was entered incorrectly",
        ),
        (
            {
                "old_password": TEST_PASSWORD,
                "new_password1": "green-lantern-42",
                "new_password2": "green-lantern-43",
            },
            "The two password fields didn",
        ),
        (
            {
                "old_password": TEST_PASSWORD,
                "new_password1": "12345678",
                "new_password2": "12345678",
            },
            "This password is too common.",
        ),
    ],
)
def test_a_refused_password_change_changes_nothing(member_client, data, message):
    before = state()
    response = member_client.post("/account/password/", data, **EN)
    assert response.status_code == 400 and message in text(response)
    assert state() == before and signs_in("member", TEST_PASSWORD)


def test_a_member_changes_his_name(member_client, member, players):
    players[0].user = member
    players[0].save()
    page = member_client.get("/account/", **EN)
    assert 'value="Анна"' in text(page) and "player" in text(page)
    response = member_client.post("/account/", {"name": "  Анна   Петровна "})
    assert response.status_code == 302 and response.url == "/account/?saved=name"
    players[0].refresh_from_db()
    assert players[0].name == "Анна Петровна" and players[0].key == "анна петровна"
    entry = AuditEntry.objects.get(verb="player.rename")
    assert entry.user == member and entry.data == {
        "player": players[0].pk,
        "was": "Анна",
        "name": "Анна Петровна",
    }
    assert member_client.post("/account/", {"name": "анна петровна"}).status_code == 302
    players[0].refresh_from_db()
    assert players[0].name == "анна петровна"  # his own name in another case


@pytest.mark.parametrize(
    "name, message",
    [
        ("вера", "The club already has a player of that name."),
        (" ВЕРА ", "The club already has a player of that name."),
        ("Ан\x07на", "A name may hold only printable text."),
        ("Ан\x00на", "Null characters are not allowed."),
        ("   ", "This field is required."),
        ("Я" * 61, "at most 60 characters"),
    ],
)
def test_a_refused_name_changes_nothing(member_client, member, players, name, message):
    players[0].user = member
    players[0].save()
    before = state()
    response = member_client.post("/account/", {"name": name}, **EN)
    assert response.status_code == 400 and message in alert(response)
    assert state() == before


def test_a_member_without_a_club_player_cannot_name_one(member_client, players):
    page = member_client.get("/account/", **EN)
    assert "not linked to a club player" in text(page) and 'name="name"' not in text(page)
    before = state()
    response = member_client.post("/account/", {"name": "Новый"}, **EN)
    assert response.status_code == 400
    assert "Your account is not linked to a club player" in alert(response)
    assert state() == before


def test_a_new_password_looks_random_and_readable():
    passwords = {members.new_password() for _ in range(50)}
    assert len(passwords) == 50
    for password in passwords:
        assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", password)
        assert not set(password) & set("01ilo")
