"""The Django admin in Russian: every app and model on its index is named in Russian (the
club's own, Django's and django-axes'), and the club's roles, stored as groups under their
English names, are shown as the club words them wherever the admin names a group."""

import re

import pytest
from django.contrib.auth.models import Group

from club.roles import DIRECTOR, ORGANISER, PLAYER
from tests.support.rules_pages import Tree

RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
LATIN = re.compile(r"[A-Za-z]{2,}")
ROLE_NAMES = {ORGANISER: "организатор", DIRECTOR: "директор", PLAYER: "игрок"}


@pytest.fixture
def organiser_client(client, django_user_model):
    """The organiser as ``make run`` makes him: a superuser in the organisers' group."""
    olga = django_user_model.objects.create_superuser("olga", password="pw-for-tests-only")
    olga.groups.add(Group.objects.get_or_create(name=ORGANISER)[0])
    client.force_login(olga)
    return client


def page(client, path: str):
    response = client.get(path, **RU)
    assert response.status_code == 200
    return Tree(response.content.decode()).root


@pytest.mark.django_db
def test_the_admin_index_names_every_app_and_model_in_russian(organiser_client):
    index = page(organiser_client, "/admin/")
    apps = [table.find_all("caption")[0].text() for table in index.find_all("table")]
    models = [th.text() for th in index.find_all("th", scope="row")]
    assert len(apps) >= 5 and len(models) >= 10  # the club's apps, Django's accounts, axes
    assert [name for name in apps + models if LATIN.search(name)] == []


@pytest.mark.django_db
def test_the_admin_shows_the_club_roles_in_russian(organiser_client):
    for name in ROLE_NAMES:
        Group.objects.get_or_create(name=name)
    groups = page(organiser_client, "/admin/auth/group/").text()
    assert all(shown in groups for shown in ROLE_NAMES.values())
    assert not re.search(rf"\b({'|'.join(ROLE_NAMES)})\b", groups, re.IGNORECASE)
    # the accounts' filter by group, and an account's own form, name the groups alike
    users = page(organiser_client, "/admin/auth/user/")
    assert ROLE_NAMES[ORGANISER] in users.text() and ORGANISER not in users.text()
    olga = Group.objects.get(name=ORGANISER).user_set.get()
    form = page(organiser_client, f"/admin/auth/user/{olga.pk}/change/")
    (select,) = form.find_all("select", name="groups")
    assert sorted(option.text() for option in select.find_all("option")) == sorted(
        ROLE_NAMES.values()
    )
