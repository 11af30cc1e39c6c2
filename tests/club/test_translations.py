"""Russian and English are complete, and the page speaks the reader's language."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.template import loader
from django.utils import translation

from games import registry

PO = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: context, id, plural id, strings, flags (header left out)."""
    entries, entry, field = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if entry and entry.get("msgid"):
                entries.append(entry)
            entry, field = None, None
            continue
        entry = entry if entry is not None else {"flags": "", "msgstr": []}
        if line.startswith("#,"):
            entry["flags"] += line
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = line[1:-1]
            if field == "msgstr":
                entry["msgstr"][-1] += text
            else:
                entry[field] += text
        else:
            key, _, value = line.partition(" ")
            value = value[1:-1]
            if key.startswith("msgstr"):
                field = "msgstr"
                entry["msgstr"].append(value)
            else:
                field = key
                entry[key] = value
    return entries


def unescape(text: str) -> str:
    return text.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def test_every_russian_message_is_translated_and_none_is_fuzzy():
    entries = po_entries(PO)
    assert len(entries) > 100
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"])]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not untranslated and not fuzzy


def test_the_english_texts_name_a_player_without_he():
    """A player may be anyone: the English texts say "their own device", "each on their own
    phone", never "his" or "him" (the catalogue holds every text the code shows)."""
    gendered = re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE)
    found = [
        text
        for e in po_entries(PO)
        for text in (e["msgid"], e.get("msgid_plural", ""))
        if gendered.search(text)
    ]
    assert not found


def test_the_english_rules_name_a_player_without_he():
    """The rules pages written in English (not in the catalogue) say "their hand" too; their
    comments ({# … #}) are for developers."""
    gendered = re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE)
    found = {}
    for game in registry.games():
        for name in game.rules_templates("en")[:1]:
            text = loader.get_template(name).template.source
            text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
            found[name] = gendered.findall(text)
    assert found and not any(found.values()), found


def test_the_compiled_catalogue_matches_the_po_file():
    with translation.override("ru"):
        for e in po_entries(PO):
            msgid, msgstr = unescape(e["msgid"]), unescape(e["msgstr"][0])
            if "msgid_plural" in e:
                got = translation.ngettext(msgid, unescape(e["msgid_plural"]), 1)
            elif "msgctxt" in e:
                got = translation.pgettext(unescape(e["msgctxt"]), msgid)
            else:
                got = translation.gettext(msgid)
            assert got == msgstr, f"run `make messages`: {msgid!r} gives {got!r}"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="xgettext (gettext) is missing")
def test_every_translatable_string_of_the_code_is_in_the_catalogue(tmp_path):
    """makemessages on a copy of the project finds nothing the catalogue lacks."""
    base = Path(settings.BASE_DIR)
    for name in ("config", "club", "games", "tournaments", "ratings", "templates", "locale"):
        shutil.copytree(
            base / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
        )
    shutil.copy(base / "manage.py", tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ru", "--no-location", "-v", "0"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    fresh = {
        (e.get("msgctxt"), e["msgid"])
        for e in po_entries(tmp_path / "locale" / "ru" / "LC_MESSAGES" / "django.po")
        if not all(e["msgstr"]) or "fuzzy" in e["flags"]
    }
    assert not fresh, f"new strings without a Russian translation: {sorted(fresh)}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words",
    [
        ("ru", ["Передайте экран", "Карты на столе", "Ход сдачи"]),
        ("en", ["Pass the screen to", "Cards on the table", "Log of the deal"]),
    ],
)
def test_the_table_page_speaks_the_browsers_language(host_client, fantan_table, language, words):
    page = host_client.get(
        fantan_table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert re.search(rf'<html lang="{language}"', page)
    for word in words:
        assert word in page
    named, other = ("Фантан", "Fan-Tan") if language == "ru" else ("Fan-Tan", "Фантан")
    assert named in page and other not in page  # the game's name in the page's language


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/tables/new/fantan/"])
def test_every_page_has_the_language_switch(host_client, path):
    page = host_client.get(path).content.decode()
    assert 'action="/i18n/setlang/"' in page
    assert 'name="language" value="ru"' in page and 'name="language" value="en"' in page


@pytest.mark.django_db
def test_the_switch_changes_the_language(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert "Card club" in response.content.decode()
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/"}, follow=True)
    assert "Карточный клуб" in response.content.decode()
