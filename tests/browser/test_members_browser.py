"""The members' pages in a real browser (Debian's chromium, Playwright): an organiser follows
the header's "Members" link, invites a member with a club player, reads the password shown
once; the member signs in with it, follows his user name to his account page, changes his
name and his password, and signs in again with the new one.

The browser and the live server's tabs come from tests/support/browser.py. Without
/usr/bin/chromium the test is skipped, except on CI (CI=true).
"""

import re

import pytest
from django.contrib.auth.models import Group

from club.models import AuditEntry, Player
from club.roles import ORGANISER, PLAYER
from tests.support.browser import PASSWORD, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


def test_an_organiser_invites_a_member_who_renames_himself_and_changes_his_password(
    open_page, django_user_model
):
    organiser = django_user_model.objects.create_user("organiser", password=PASSWORD)
    # get_or_create: an earlier transactional test may have flushed the migration's groups
    organiser.groups.add(Group.objects.get_or_create(name=ORGANISER)[0])
    Group.objects.get_or_create(name=PLAYER)
    for name in ("Анна", "Вера"):
        Player.objects.create(name=name)
    page = open_page()

    page.goto("/accounts/login/")
    sign_in(page, "organiser")
    page.wait_for_url("**/")
    assert page.get_by_role("link", name="Admin").count() == 0
    page.get_by_role("link", name="Members", exact=True).click()
    page.wait_for_url("**/members/")
    invite = page.get_by_role("region", name="Invite a member")
    invite.get_by_label("User name", exact=True).fill("vera")
    invite.get_by_label("A club player without an account").select_option(label="Вера")
    invite.get_by_label("player", exact=True).check()
    invite.get_by_role("button", name="Invite", exact=True).click()
    password = page.locator("[data-password]").inner_text()
    assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", password)
    row = page.locator("tr", has=page.get_by_role("cell", name="vera", exact=True))
    assert "Вера" in row.inner_text() and "player" in row.inner_text()
    page.get_by_role("button", name="Sign out", exact=True).click()

    page.goto("/accounts/login/")
    sign_in(page, "vera", password)
    page.wait_for_url("**/")
    assert page.get_by_role("link", name="Members").count() == 0
    assert page.get_by_role("link", name="Admin").count() == 0
    page.get_by_role("link", name="vera", exact=True).click()
    page.wait_for_url("**/account/")
    page.get_by_role("textbox", name="Your name at the club").fill("Вера Николаевна")
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_text("Your name is saved.").wait_for()
    assert Player.objects.get(user__username="vera").name == "Вера Николаевна"

    page.get_by_role("link", name="Change your password").click()
    page.get_by_label("Old password").fill(password)
    page.get_by_label("New password", exact=True).fill("green-lantern-42")
    page.get_by_label("New password confirmation").fill("green-lantern-42")
    page.get_by_role("button", name="Change the password").click()
    page.get_by_text("Your password is changed.").wait_for()
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.goto("/accounts/login/")
    sign_in(page, "vera", "green-lantern-42")
    page.wait_for_url("**/")
    page.get_by_role("link", name="vera", exact=True).wait_for()

    assert list(
        AuditEntry.objects.filter(verb__startswith="member.")
        .order_by("pk")
        .values_list("verb", flat=True)
    ) == ["member.invite", "member.password"]
    assert password not in str(list(AuditEntry.objects.values_list("data", flat=True)))
