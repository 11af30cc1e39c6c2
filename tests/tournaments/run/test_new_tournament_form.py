"""The new-tournament form: each of the game's options links to its paragraph of the game's
rules, as the new-table form's do; the tournament's date (today unless typed) is saved and
shown; and the seed is named by one word, the seed of the draw, on every page, form and
admin label (it seeds the seating draw alone, not the deals)."""

import re
from pathlib import Path

import pytest
from django.utils import timezone, translation

from club.models import AuditEntry
from club.roles import DIRECTOR
from games import registry
from tests.support.accounts import user_in
from tests.support.rules_pages import Tree, rules_page, rules_url
from tournaments.models import Tournament
from tournaments.run.forms import TournamentForm

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
APP = Path(__file__).resolve().parents[3] / "tournaments"
FORM = {
    "name": "Осенний кубок",
    "rounds_planned": "3",
    "seating": "mixing",
    "seed": "20261130",
    "bye_points": "3",
    "order": "default",
    "option-cycle": "short",
}


@pytest.fixture
def director(client, django_user_model):
    user = user_in(django_user_model, "director", DIRECTOR)
    client.force_login(user)
    return user


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_each_option_of_the_form_links_to_its_paragraph_of_the_rules(client, director, key):
    page = Tree(client.get(f"/tournaments/new/{key}/", **EN).content.decode()).root
    rules = rules_page(key, "en")
    names = TournamentForm(registry.game(key)).options_form.option_names
    assert names
    for name in names:
        (row,) = [
            row
            for row in page.find_all("div", class_="option-row")
            if row.find_all(name=f"option-{name}")
        ]
        assert [a.attrs["href"] for a in row.find_all("a")] == [f"{rules_url(key)}#option-{name}"]
        assert rules.by_id(f"option-{name}")
        (link,) = row.find_all("a")
        assert link.attrs["target"] == "_blank"  # the form stays as filled in
    assert page.find_all("a", href=rules_url(key))  # and the whole rules, at the top


def test_the_date_typed_is_saved_and_shown_and_a_blank_one_is_today(client, director):
    form = client.get("/tournaments/new/variety/", **EN).content.decode()
    today = timezone.localdate()
    assert re.search(rf'type="date" name="date" value="{today.isoformat()}"', form)
    response = client.post("/tournaments/new/variety/", {**FORM, "date": "2026-11-28"}, **EN)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.date.isoformat() == "2026-11-28"
    page = client.get(f"/tournaments/{tournament.key}/", **EN).content.decode()
    assert '<time datetime="2026-11-28">Nov. 28, 2026</time>' in page
    assert "Nov. 28, 2026" in client.get("/tournaments/", **EN).content.decode()

    client.post("/tournaments/new/variety/", {**FORM, "name": "Без даты", "date": ""}, **EN)
    assert Tournament.objects.get(name="Без даты").date == today


def test_an_impossible_date_is_refused_at_its_field_and_nothing_is_created(client, director):
    response = client.post("/tournaments/new/variety/", {**FORM, "date": "2026-02-30"}, **EN)
    assert response.status_code == 400
    assert "Enter a valid date." in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_sent_twice_creates_one_tournament(client, director, django_user_model):
    """A double click on "Create the tournament": the second answer is the first's page, and
    nothing more is created; another form makes another tournament."""
    form = client.get("/tournaments/new/variety/", **EN).content.decode()
    (token,) = re.findall(r'name="token" value="([^"]+)"', form)
    first = client.post("/tournaments/new/variety/", {**FORM, "token": token}, **EN)
    again = client.post("/tournaments/new/variety/", {**FORM, "token": token}, **EN)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Tournament.objects.count() == 1
    assert AuditEntry.objects.filter(verb="tournament.create").count() == 1
    (other,) = re.findall(
        r'name="token" value="([^"]+)"',
        client.get("/tournaments/new/variety/", **EN).content.decode(),
    )
    assert other != token
    client.post("/tournaments/new/variety/", {**FORM, "token": other}, **EN)
    assert Tournament.objects.count() == 2
    # another director's form (its token forged): refused, with the reason, nothing made
    client.force_login(user_in(django_user_model, "another", DIRECTOR))
    response = client.post("/tournaments/new/variety/", {**FORM, "token": token}, **EN)
    assert response.status_code == 400
    assert "This form has already been sent." in response.content.decode()
    assert Tournament.objects.count() == 2


def seed_texts() -> list[str]:
    """Every text of the tournaments app marked for translation that names a seed: its
    templates' (translate, blocktranslate) and its modules' (gettext and the rest)."""
    found = []
    for path in APP.rglob("*.html"):
        source = path.read_text(encoding="utf-8")
        found += re.findall(r'{% translate "([^"]*)"', source)
        found += re.findall(
            r"{% blocktranslate[^%]*%}(.*?){% endblocktranslate %}", source, flags=re.S
        )
    for path in APP.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        found += re.findall(r'\b(?:_|[np]*gettext\w*)\(\s*"([^"]*)"', path.read_text("utf-8"))
    return [text for text in found if re.search(r"\bseed\b", text, flags=re.I)]


def test_the_seed_is_the_seed_of_the_draw_in_every_text_and_both_languages():
    texts = seed_texts()
    assert {text.lower() for text in texts} == {"seed of the draw"}, texts
    field = Tournament._meta.get_field("seed")
    assert field.verbose_name._args == ("seed of the draw",)  # marked: this msgid, lazily
    with translation.override("ru"):
        for text in texts:  # where the catalogue has it, one Russian word too
            russian = translation.gettext(text)
            assert russian == text or "жеребьёвк" in russian.lower(), russian


def test_the_form_the_pages_and_the_admin_label_the_seed_of_the_draw(
    client, director, django_user_model
):
    form = client.get("/tournaments/new/variety/", **EN).content.decode()
    assert '<label for="id_seed">Seed of the draw</label>' in form
    client.post("/tournaments/new/variety/", FORM, **EN)
    tournament = Tournament.objects.get()
    for address in (f"/tournaments/{tournament.key}/", f"/tournaments/{tournament.key}/run/"):
        assert "Seed of the draw" in client.get(address, **EN).content.decode(), address
    client.force_login(django_user_model.objects.create_superuser("admin", password="pw"))
    admin = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/", **EN)
    assert admin.status_code == 200
    assert "Seed of the draw" in admin.content.decode()
    assert ">Seed:<" not in admin.content.decode()
