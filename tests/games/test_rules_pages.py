"""The rules pages: one for every game of the registry, in Russian and in English, public;
the cards, the deal, the play, the scoring and a paragraph for every option of the game's
new-table form; linked from the home page, from each option of the form and from every table
page; the book's worked examples drawn in real cards and checked against the engines."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games import registry, services
from games.engine.cards import CODES
from games.templatetags.cards import card_name
from tests.support.commands import end, lays_in_own_square, leopard_record
from tests.support.rules_pages import Node, Tree, rules_page, rules_url

pytestmark = pytest.mark.django_db

GAME_KEYS = sorted(registry.GAMES)
LANGUAGES = ["en", "ru"]
SECTIONS = ["cards", "deal", "play", "scoring", "options"]
# A word the section on the cards says in each language (the page is written in it).
CARDS_WORD = {"en": "card", "ru": "карт"}
# The players of the examples, clockwise from the dealer's left, as each language letters them.
PLAYERS = {"en": "ABCD", "ru": "АБВГ"}
# How the examples of the auction word their outcome: attackers, defenders, who leads.
OUTCOME = {
    "en": r"Attackers: (\w) and (\w); defenders: (\w) and (\w)\. (\w) leads to the first trick",
    "ru": r"Атакующие: (\w) и (\w); обороняющиеся: (\w) и (\w)\. В первую взятку ходит (\w) ",
}


# -- reading a page --------------------------------------------------------------------------


def names(codes, language: str) -> list[str]:
    """The cards' accessible names in ``language``, as the card partial gives them."""
    with translation.override(language):
        return [card_name(code) for code in codes]


def option_names(form) -> list[str]:
    """The form's own fields: every field but the seats of the shared ``TableForm``."""
    seats = {f"{part}_{i}" for part in ("seat", "new", "device") for i in range(form.seats)}
    return [name for name in form.fields if name not in seats]


# -- the pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_a_public_rules_page_in_both_languages_with_its_sections(key, language):
    page = rules_page(key, language)  # a visitor: nobody signed in
    game = registry.game(key)
    (h1,) = page.find_all("h1")
    named, other = (
        (game.name, game.english_name) if language == "ru" else (game.english_name, game.name)
    )
    assert named in h1.text() and other not in h1.text()  # the page's language's name alone
    for section_id in SECTIONS:
        section = page.by_id(section_id)
        assert section.tag == "section"
        heading = section.find_all("h2")[0]
        assert heading.text()
        assert len(section.text()) > len(heading.text()) + 100, f"#{section_id} says little"
    assert CARDS_WORD[language] in page.by_id("cards").text().lower()
    # A table of contents links every section, and every one of its links lands somewhere.
    (toc,) = page.find_all("nav", class_="toc")
    targets = [a.attrs["href"] for a in toc.find_all("a")]
    assert {f"#{section_id}" for section_id in SECTIONS} <= set(targets)
    for target in targets:
        assert page.by_id(target[1:]).tag == "section"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", GAME_KEYS)
def test_headings_go_down_one_level_at_a_time_and_every_image_has_a_name(key, language):
    page = rules_page(key, language)
    levels = [int(n.tag[1]) for n in page.iter() if re.fullmatch(r"h[1-6]", n.tag)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels
    labels = page.find_all("article")[0].images()
    assert labels and all(label and label.strip() for label in labels)
    # every card drawn is named as the boards name it, in the page's language
    with translation.override(language):
        card_names = {card_name(code) for code in CODES}
    cards = [n for n in page.find_all(class_="card") if n.attrs.get("role") == "img"]
    assert cards
    for card in cards:
        assert card.attrs["aria-label"].split(": ")[-1] in card_names


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_option_of_the_new_table_form_has_its_paragraph(key, language):
    page = rules_page(key, language)
    form = registry.game(key).form()
    options = option_names(form)
    assert options and set(options) == set(form.option_names)
    section = page.by_id("options")
    for name in options:
        paragraph = page.by_id(f"option-{name}")
        assert paragraph.tag == "p" and paragraph.inside(section)
        with translation.override(language):
            label = str(form.fields[name].label)
        text = paragraph.text()
        assert text.startswith(label), (name, text[:60])
        assert len(text) > len(label) + 40, f"the paragraph of {name} says little"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_new_table_form_links_each_option_to_its_paragraph(host_client, key):
    html = host_client.get(f"/tables/new/{key}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    form_page = Tree(html).root
    rules = rules_page(key, "en")
    for name in option_names(registry.game(key).form()):
        (row,) = [
            row for row in form_page.find_all("div", class_="option-row") if row.find_all(name=name)
        ]
        links = [a.attrs["href"] for a in row.find_all("a")]
        assert links == [f"{rules_url(key)}#option-{name}"]
        assert rules.by_id(f"option-{name}")
    assert form_page.find_all("a", href=rules_url(key))  # and the whole page, at the top


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "member"])
def test_the_home_page_links_every_game_to_its_rules(client, host, signed_in):
    if signed_in:
        client.force_login(host)
    home = Tree(client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()).root
    for game in registry.games():
        (link,) = home.find_all("a", href=rules_url(game.key))
        assert game.english_name in link.text()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_table_page_and_its_spectators_page_link_to_the_rules_and_nothing_of_the_table(
    host, host_client, players, key
):
    rules = registry.rules(key)
    seats = rules.seats(rules.parse_options({}))
    table = services.start_table(user=host, game=key, players=players[:seats], options={}, seed=7)
    for client, address in (
        (host_client, table.get_absolute_url()),
        (Client(), table.get_watch_url()),
    ):
        page = Tree(client.get(address, HTTP_ACCEPT_LANGUAGE="en").content.decode()).root
        (head,) = page.find_all("header", class_="table-head")
        (link,) = head.find_all("a")
        assert link.attrs["href"] == rules_url(key)  # no key, no query
        assert {"noopener", "noreferrer"} <= set(link.attrs["rel"].split())
        assert link.text().startswith("Rules")
    html = Client().get(rules_url(key)).content.decode()
    assert table.token not in html and table.watch_key not in html


@pytest.mark.parametrize("address", ["/rules/nope/", "/rules/FANTAN/", "/rules/registry/"])
def test_an_unknown_game_has_no_rules_page(client, address):
    assert client.get(address).status_code == 404


def test_the_rules_page_answers_get_only(client):
    assert client.post(rules_url(GAME_KEYS[0])).status_code == 405


# -- the book's examples ---------------------------------------------------------------------


def auction_calls(example: Node, language: str) -> list[tuple[int, int]]:
    """(seat, number) of each call in the example's table, seat 0 on the dealer's left."""
    (table,) = example.find_all("table")
    calls = []
    for row in table.find_all("tbody")[0].find_all("tr"):
        cells = row.find_all("td")
        calls.append((PLAYERS[language].index(cells[1].text()), int(cells[2].text())))
    return calls


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "example, calls, contract, attackers, hands",
    [
        (1, [2, 3, 6, 2], 2, (0, 3), "AC KC QC JC TC 9C"),
        (2, [5, 1, 8, 4, 7, 3, 4], 4, (3, 2), "AS AH AD AC"),
    ],
)
def test_the_variety_auction_examples_play_as_the_engine_plays_and_show_their_cards(
    language, example, calls, contract, attackers, hands
):
    page = rules_page("variety", language)
    node = page.by_id(f"example-{example}")
    assert node.inside(page.by_id("examples"))
    assert auction_calls(node, language) == [(i % 4, n) for i, n in enumerate(calls)]
    # The engine, given these calls (the dealer on seat 3), ends the auction at the last one.
    rules = registry.rules("variety")
    options = rules.parse_options({})
    state = rules.start(options, 3, rules.deal(options, 3, 1))
    for i, number in enumerate(calls):
        assert state.view(None)["contract"] is None
        state.apply({"seat": i % 4, "call": number})
    view = state.view(None)
    assert view["contract"] == contract and tuple(view["attackers"]) == attackers
    # The outcome names the sides, and who leads: the first namer's left neighbour.
    assert state.to_act == (attackers[0] + 1) % 4
    (outcome,) = node.find_all("p", class_="outcome")
    named = re.search(OUTCOME[language], outcome.text())
    assert named, outcome.text()
    seats = [PLAYERS[language].index(letter) for letter in named.groups()]
    assert seats == [*attackers, *view["defenders"], state.to_act]
    # The cards the example's table talk speaks of, drawn as cards with their names.
    assert node.images() == names(hands.split(), language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_leopard_example_square_scores_10_and_the_declarer_14(language):
    page = rules_page("leopard", language)
    example = page.by_id("examples")
    (square,) = example.find_all(class_="square")
    labels = square.images()
    assert len(labels) == 9 and len(square.find_all(class_="scoring")) == 9
    with translation.override(language):
        code_of = {card_name(code): code for code in CODES}
    codes = [code_of[label.split(": ")[1]] for label in labels]
    # each card on its own place (ace to nine), as the place names say
    assert [label.split(": ")[0] for label in labels] == [
        n.text() for n in square.find_all(class_="place-name")
    ]
    assert [code[0] for code in codes] == list("A23456789")
    # The engine plays the square into the first player's own square; he declares the end.
    rules = registry.rules("leopard")
    turns = lays_in_own_square(0, codes, other_cards=[f"{r}C" for r in "A23456789"])
    state = rules.from_record(leopard_record(turns, dealer=1))
    for action in turns:
        state.apply(action)
    lines = state.view(None)["lines"][0]
    assert sum(lines) == 10
    # as the book counts it: rows 4, columns 3, diagonals 3
    assert (sum(lines[:3]), sum(lines[3:6]), sum(lines[6:])) == (4, 3, 3)
    state.apply(end(0))
    assert state.result()["scores"][0] == 14
    # The page shows the sum, the formula and the score, and marks the lines that score.
    assert example.find_all(class_="example-sum")[0].text() == "10"
    assert example.find_all(class_="example-score")[0].text() == "14"
    assert "10 + (10 − 5) − 1 = 14" in example.find_all(class_="formula")[0].text()
    (table,) = example.find_all("table", class_="lines-table")
    rows = table.find_all("tbody")[0].find_all("tr")
    assert [int(row.find_all("td")[-1].text()) for row in rows] == [p for p in lines if p]
    assert len(table.find_all("tr", class_="suit-line")) == lines.count(2) == 2


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_its_rules_document_for_developers(key):
    """docs/rules/<key>.md specifies what the engine plays, and the rules' index lists it:
    a game added through the registry comes with the document its engine is held to."""
    docs = Path(settings.BASE_DIR) / "docs" / "rules"
    assert (docs / f"{key}.md").is_file()
    assert f"]({key}.md)" in (docs / "README.md").read_text(encoding="utf-8")
