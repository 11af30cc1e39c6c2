"""A tournament's address: a key a person can read out and type on a phone, the name in
Latin letters (``klubnyy-vecher-2``), or a short random key where the name gives none. A
tournament's former key still finds it: its pages answer with a permanent redirect to the
same page under the key (``FormerKeys``), and the commands accept either."""

import re
import secrets
import unicodedata

from django.db.models import Q
from django.http import Http404, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin

# Russian as BGN/PCGN writes it, without its diacritics; Ukrainian and Belarusian letters too.
CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяієїґў",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "e",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "",
            "y",
            "",
            "e",
            "yu",
            "ya",
            "i",
            "ye",
            "yi",
            "g",
            "u",
        ],
        strict=True,
    )
)
# Latin letters that Unicode does not decompose into a plain letter and a mark.
LATIN = {
    "ß": "ss",
    "æ": "ae",
    "œ": "oe",
    "ø": "o",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ı": "i",
}
LONGEST = 40  # a key's words are cut to this many characters, at a hyphen
SHORT = 6  # the length of a key drawn at random
# No 0/o, 1/l/i: a random key is read out and typed without asking which was meant.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
# /tournaments/new/<game>/, /tournaments/players/<pk>/ and /tournaments/seasons/<key>/ would
# hide a tournament's pages (and /tournaments/seasons/new/ a season's).
RESERVED = frozenset({"new", "players", "seasons"})
READABLE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def latin(text: str) -> str:
    """``text`` in lowercase ASCII letters, digits and whatever else it had that is ASCII."""
    lowered = re.sub(r"['’ʼ`]", "", text.lower())  # Anna's, not anna-s
    spelled = "".join(CYRILLIC.get(char, LATIN.get(char, char)) for char in lowered)
    return unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode()


def slug_of(name: str) -> str:
    """The name's words in Latin letters joined by hyphens, cut to ``LONGEST`` characters at a
    hyphen; "" when the name has no letter or digit that can be written so."""
    words = re.findall(r"[a-z0-9]+", latin(name))
    if not words:
        return ""
    slug = words[0][:LONGEST]
    for word in words[1:]:
        if len(slug) + 1 + len(word) > LONGEST:
            break
        slug = f"{slug}-{word}"
    return slug


def random_key() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(SHORT))


def is_readable(key: str) -> bool:
    """A key as ``free_key`` gives them: lowercase ASCII words and digits joined by hyphens."""
    return len(key) <= 80 and READABLE.fullmatch(key) is not None and key not in RESERVED


def readable_key(name: str, taken) -> str:
    """A key for ``name`` that ``taken(key)`` says is free: its slug, numbered from 2 when it
    is taken (``klubnyy-vecher-2``), or a random key where the name gives none."""
    base = slug_of(name)
    if not base:
        key = random_key()
        while taken(key):
            key = random_key()
        return key
    key, n = base, 1
    while key in RESERVED or taken(key):
        n += 1
        key = f"{base}-{n}"
    return key


def key_lookup(key: str) -> Q:
    """The tournament whose key, or former key, ``key`` is."""
    return Q(key=key) | Q(old_key=key)


# -- a page under a former key -----------------------------------------------------------


class Moved(Exception):
    """The page was asked for under the tournament's former key; ``key`` is its key."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def tournament_or_404(key: str):
    """The tournament of this key; Http404 when there is none, Moved when ``key`` is its
    former key (the page redirects)."""
    from .models import Tournament  # here: the selectors and models import this module
    from .selectors import tournament_by_key

    try:
        tournament = tournament_by_key(key)
    except Tournament.DoesNotExist:
        raise Http404 from None
    if tournament.key != key:
        raise Moved(tournament.key)
    return tournament


class FormerKeys(MiddlewareMixin):
    """A page asked for under a tournament's former key answers with a permanent redirect to
    the same page under its key, its query kept: 301 for a GET, 308 for a form posted from a
    page that still showed the old address (the browser posts it again there)."""

    def process_exception(self, request, exception):
        if not isinstance(exception, Moved) or request.resolver_match is None:
            return None
        match = request.resolver_match
        url = reverse(match.view_name, kwargs={**match.kwargs, "key": exception.key})
        if request.META.get("QUERY_STRING"):
            url = f"{url}?{request.META['QUERY_STRING']}"
        if request.method in ("GET", "HEAD"):
            return HttpResponsePermanentRedirect(url)
        return PermanentRedirectKeepingMethod(url)


class PermanentRedirectKeepingMethod(HttpResponseRedirect):
    status_code = 308
