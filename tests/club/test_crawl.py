"""Every page a link leads to, from the front page of a full club (tests/support/club_night.py), for
every role and in both languages: none answers 500 or more, no Russian page shows an
English word the club did not type itself, each page names the games in its own language
alone, and a negative number is written with a minus sign."""

import re
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.test import Client
from django.urls import Resolver404, resolve

from club.models import Player
from games import registry
from games.models import Seat, Table
from tests.support import club_night
from tournaments.models import Tournament

ROLES = ["anonymous", "player", "scorer", "director", "organiser", "staff"]
# where a link leads away from the pages, or changes what the crawler is
SKIPPED = ("/static/", "/i18n/", "/accounts/logout/", "/admin/logout/", "/admin/r/")
# the admin's pages of Django's own accounts and of django-axes speak those libraries' words
NOT_OURS = ("/admin/auth/", "/admin/axes/")
# the alternative texts Django's admin gives its icons, in English whatever the language
ADMIN_ICONS = {"Search", "True", "False"}
QUERIES_A_PATH = 3  # a replay's steps, a list's filters: a few of each address
ADMIN_PAGES_A_KIND = 4  # the admin's pages of one kind (a change form, a history) for a few
TEXT_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
# Latin words a Russian page may show: the language switch's "English", keys' names,
# formats, and the club's own names (players, accounts, tournaments: below)
LATIN_WORDS = {
    "English",
    "Home",
    "End",
    "Enter",
    "Esc",
    "CSV",
    "JSON",
    "SVG",
    "PNG",
    "HTML",
    "ID",
}


class Page(HTMLParser):
    """The links of a page and its words a person reads (text, and the attributes that
    are read aloud or shown), without scripts and styles, nor what an element marks as
    written in another language than the page's (``lang``: a name quoted in its own)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.words, self.skip = [], [], 0
        self.languages: list[tuple[str, str]] = []  # (tag, lang) of the open elements marked

    def quoting(self) -> bool:
        return len({lang for _, lang in self.languages}) > 1

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style", "template"):
            self.skip += 1
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if attrs.get("lang"):
            self.languages.append((tag, attrs["lang"]))
        if self.quoting():
            return
        self.words += [attrs[name] for name in TEXT_ATTRIBUTES if attrs.get(name)]
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.words.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self.skip:
            self.skip -= 1
        if self.languages and self.languages[-1][0] == tag:
            self.languages.pop()

    def handle_data(self, data):
        if not self.skip and data.strip() and not self.quoting():
            self.words.append(data)


def club_words() -> set[str]:
    """The names the club typed in, which no translation changes."""
    from django.contrib.auth import get_user_model

    names = list(Player.objects.values_list("name", flat=True))
    names += list(get_user_model().objects.values_list("username", flat=True))
    names += list(Tournament.objects.values_list("name", flat=True))
    names += list(Tournament.objects.values_list("key", flat=True))
    names += list(Table.objects.values_list("name", flat=True))
    return {word for name in names for word in re.findall(r"[A-Za-z]+", name)}


def club_names() -> list[str]:
    """The names the club typed in that a page shows whole (players, tournaments, tables),
    longest first."""
    names = list(Player.objects.values_list("name", flat=True))
    names += list(Tournament.objects.values_list("name", flat=True))
    names += list(Table.objects.exclude(name="").values_list("name", flat=True))
    return sorted(set(names), key=len, reverse=True)


def other_games_names(words: list[str], language: str, typed: list[str]) -> list[str]:
    """The phrases of ``words`` that name a game in the other language than ``language``,
    once the names the club typed (``typed``: "Leopard open") are left out."""
    others = [g.english_name if language == "ru" else g.name for g in registry.games()]
    found = []
    for text in words:
        if text.lstrip().startswith(("{", "[")):
            continue
        rest = text
        for name in typed:
            rest = rest.replace(name, "")
        if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", rest) for name in others):
            found.append(" ".join(text.split())[:120])
    return found


def english(words: list[str], allowed: set[str]) -> list[str]:
    """The phrases of ``words`` with a Latin word that is not the club's own (addresses and
    data shown as JSON left out)."""
    found = []
    for text in words:
        if text.lstrip().startswith(("{", "[")):
            continue
        text = re.sub(r"\S+://\S+|\b[\w-]{16,}\b", "", text)  # addresses and keys
        latin = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed]
        if latin:
            found.append(" ".join(text.split())[:120])
    return found


def internal(base: str, href: str) -> str | None:
    url = urldefrag(urljoin(base, href)).url
    parts = urlsplit(url)
    if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
        return None
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return None if not parts.path or parts.path.startswith(SKIPPED) else path


def kind(path: str) -> str | None:
    """The admin's name for the page's view, so that its pages of one kind are counted."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.view_name if match.namespace == "admin" else None


@dataclass
class Crawl:
    fetched: set[str]  # every address reached
    errors: list[tuple[str, int]]  # answers of 500 and more
    pages: dict[str, list[str]]  # each HTML page's words a person reads


def crawl(client: Client, language: str) -> Crawl:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    queue, seen = ["/"], {"/"}
    queries, kinds = Counter(), Counter()
    errors, pages = [], {}
    while queue:
        path = queue.pop(0)
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        if response.status_code >= 500:
            errors.append((path, response.status_code))
            continue
        if response.status_code in (301, 302):
            found = [response["Location"]]
        elif "text/html" in response.get("Content-Type", ""):
            page = Page()
            page.feed(response.content.decode())
            found = page.links
            pages[path] = page.words
        else:
            continue
        for href in found:
            target = internal(path, href)
            if target is None or target in seen:
                continue
            seen.add(target)
            bare = urlsplit(target).path
            admin = kind(target)
            if "?" in target and queries[bare] >= QUERIES_A_PATH:
                continue
            if admin and kinds[admin] >= ADMIN_PAGES_A_KIND:
                continue
            queries[bare] += "?" in target
            kinds[admin] += bool(admin)
            queue.append(target)
    return Crawl(seen, errors, pages)


def seat_keys(paths: set[str]) -> set[str]:
    return {path.split("/")[2] for path in paths if path.startswith("/s/")}


def keys_shown_to(role: str, user) -> set[str]:
    """The seat links a role may be shown: a director's, every one; a member's, his own
    seats' and those of the tables he holds the screen of; a visitor's, none."""
    seats = Seat.objects.filter(device=True)
    if role in ("director", "organiser", "staff"):
        return set(seats.values_list("key", flat=True))
    if user is None:
        return set()
    mine = seats.filter(Q(player__user=user) | Q(table__created_by=user))
    return set(mine.values_list("key", flat=True))


@pytest.fixture(scope="module")
def built_club(django_db_setup, django_db_blocker):
    """The club night, built once for the module (building it costs as long as a whole
    night's services do) in a transaction rolled back after the module's last test."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield club_night.build()
        transaction.set_rollback(True)


@pytest.fixture
def club(built_club, db):
    """The club night; each test runs in a savepoint of its transaction."""
    return built_club


@pytest.fixture(scope="module")
def crawls():
    """The crawls made, by role and language: the pages only read the club."""
    return {}


@pytest.fixture
def crawled(club, crawls):
    """The club crawled as a role in a language, once for the module."""

    def crawled_as(role: str, language: str) -> Crawl:
        if (role, language) not in crawls:
            client = Client()
            if role != "anonymous":
                client.force_login(club[role])
            crawls[role, language] = crawl(client, language)
        return crawls[role, language]

    return crawled_as


# A database answers alike in either language: the run on PostgreSQL crawls in English.
LANGUAGES = ["en", pytest.param("ru", marks=pytest.mark.any_database)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_every_page_answers_and_speaks_russian_for_every_role(club, crawled, role, language):
    found = crawled(role, language)
    fetched, errors, pages = found.fetched, found.errors, found.pages
    untranslated = []
    if language == "ru":
        allowed = LATIN_WORDS | club_words()
        for path, words in pages.items():
            if path.startswith(NOT_OURS):
                continue
            known = allowed | ADMIN_ICONS if path.startswith("/admin/") else allowed
            untranslated += [(path, phrase) for phrase in english(words, known)]
    assert len(fetched) > 10, f"the crawl found only {len(fetched)} pages"
    if role in ("scorer", "director"):  # a paper table's entry link, on the round page
        assert any(path.startswith("/e/") for path in fetched)
    if role in ("player", "director"):  # seats' own pages, from the host and front pages
        assert any(path.startswith("/s/") for path in fetched)
    # a seat's link plays that seat: only its player, its host and the directors reach it
    assert seat_keys(fetched) <= keys_shown_to(role, club.get(role))
    report = [f"{language} {path}: {status}" for path, status in errors]
    first = {}
    for path, phrase in untranslated:
        first.setdefault(phrase, path)
    report += [f"untranslated on {path}: {phrase!r}" for phrase, path in first.items()]
    assert not report, "\n".join(report)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_every_page_names_the_games_in_its_own_language_alone(club, crawled, role, language):
    """A Russian page names a game in Russian and an English page in English: in titles,
    headings, lists and forms alike, never the two names side by side. A name quoted in the
    other language's running text is marked as such (``lang``), as the rules' first lines
    do."""
    typed = club_names()
    found = {}
    for path, words in crawled(role, language).pages.items():
        for phrase in other_games_names(words, language, typed):
            found.setdefault(phrase, path)
    assert not found, "\n".join(f"{language} {path}: {phrase!r}" for phrase, path in found.items())


# a hyphen written as a number's minus: "-18", "(-4)", not "2026-12-06" nor "Анна-Мария"
HYPHEN_MINUS = re.compile(r"(?:^|[\s(])-\d")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_every_negative_number_on_the_pages_has_a_minus_sign(club, crawled, role, language):
    """Score sheets, results, standings, the projector, the rounds, the players' pages, the
    charts' numbers, the sheets' rows and adjustments write −18, not -18: a hyphen reads as a
    dash. Data shown as JSON keeps what programs read, and django-simple-history's lists of
    an admin object's versions write their fields as stored."""
    found = {}
    for path, words in crawled(role, language).pages.items():
        if path.startswith("/admin/") and "/history/" in path:
            continue
        for text in words:
            if not text.lstrip().startswith(("{", "[")) and HYPHEN_MINUS.search(text):
                found.setdefault(" ".join(text.split())[:120], path)
    assert not found, "\n".join(f"{language} {path}: {phrase!r}" for phrase, path in found.items())


def test_the_club_has_every_kind_of_thing_the_crawl_must_see(club):
    """The club night the crawl walks holds what broke before: robots beside a member at his
    tables, tournaments of every game, typed and played-here tables."""
    assert Seat.objects.filter(table__seats__player__user=club["player"]).exclude(robot="").exists()
    assert set(Tournament.objects.values_list("game", flat=True)) == set(registry.GAMES)
    from tournaments.models import Bye, RoundTable

    assert RoundTable.objects.filter(hotseat__isnull=False).exists()
    # a table played on its players' devices, one of them the member's: his seat link
    assert Seat.objects.filter(device=True, player__user=club["player"]).exists()
    assert RoundTable.objects.filter(entered_by__isnull=False, confirmed_by__isnull=False)
    # a table reporting itself, with a row awaiting confirmation: its entry page is crawled
    assert RoundTable.objects.filter(reported=True, reported_row__isnull=False).exists()
    assert Bye.objects.exists()
    # a seat's own page offers its player the next round's check-in: the crawl sees the offer
    from tournaments.check_in.selectors import seat_offer

    assert any(seat_offer(seat) for seat in Seat.objects.filter(device=True))


def test_every_change_of_the_club_night_is_audited_in_words(club):
    """The audit log's entries name what was done in the reader's language: every verb the
    services wrote is one the log knows how to word."""
    from club.models import AuditEntry

    verbs = set(AuditEntry.objects.values_list("verb", flat=True))
    assert {"table.start", "deal.reveal", "sheet.correct", "tournament.withdraw"} <= verbs
    assert {"sheet.report", "sheet.report.confirm"} <= verbs
    assert verbs <= set(AuditEntry.Verb.values)
