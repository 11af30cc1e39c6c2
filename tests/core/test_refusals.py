"""The club's one refusal: every refusal of the club is a ``core.refusals.Refusal`` (its
message, params and HTTP status), and ``core.wording.refusal_text`` words any of them for a
page, a game's or a tournament's alike."""

import io
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.log import log_response

from club.services import ServiceError, Stale
from config.logs import RefusalsInOneLine
from core.documents import Unreadable
from core.refusals import Phrase, Refusal
from core.wording import refusal_text
from games.engine import IllegalAction, InvalidRecord, RulesError
from games.engine.cards import CardError
from games.pages.shared import message_text
from tournaments.document import BrokenRule
from tournaments.run.forms import RowInputError
from tournaments.services import SheetRefused, TournamentError

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Анна", "Борис", "Вера", "Глеб"]


@pytest.mark.parametrize(
    "refusal",
    [
        RulesError("The deal is over."),
        CardError("unknown card %(code)r", code="ZZ"),
        ServiceError("A player needs a name."),
        Stale("The page is out of date."),
        TournamentError("This table's sheet has already begun."),
        SheetRefused(2, "“%(name)s” must be a whole number.", name="scores"),
        RowInputError(1, "Fill in every column of the row."),
        BrokenRule("round 1", "%(name)s is not an entrant", name="'Зоя'"),
        Unreadable("not UTF-8 text (byte %(byte)s)", byte=3),
    ],
    ids=lambda refusal: type(refusal).__name__,
)
def test_every_refusal_of_the_club_carries_its_message_params_and_status(refusal):
    assert isinstance(refusal, Refusal)
    assert isinstance(refusal.message, str) and isinstance(refusal.params, dict)
    assert refusal.status in (400, 409)


def test_a_game_refusal_names_the_seat_to_act_by_its_player_or_from_1():
    late = IllegalAction("It is not your turn: %(seat)s is to act.", seat=1)
    with translation.override("en"):
        assert refusal_text(late, NAMES) == "It is not your turn: Борис is to act."
        assert refusal_text(late) == "It is not your turn: seat 2 is to act."
        # about a record the reader uploaded: its seats as the record counts them
        assert refusal_text(late, as_written=True) == "It is not your turn: seat 1 is to act."


def test_a_sheet_refusal_numbers_its_seats_from_1_with_the_players_the_same_way():
    twice = SheetRefused(2, "“%(name)s” names seat %(seat)s twice.", name="finish_order", seat=1)
    with translation.override("en"):
        assert refusal_text(twice, NAMES, {"finish_order": "Went out, in order"}) == (
            "“Went out, in order” names seat 2 (Борис) twice."
        )


def test_a_refusal_writes_a_negative_number_with_the_minus_sign_as_pages_do():
    """−18 on a page; a refusal about a document the reader wrote quotes it as written."""
    unequal = SheetRefused(
        1,
        "Partners' figures must be equal: seat %(seat)s has %(figure)s, seat %(partner)s has "
        "%(other)s.",
        seat=0,
        figure=-18,
        partner=3,
        other=-17,
    )
    with translation.override("en"):
        assert refusal_text(unequal, NAMES) == (
            "Partners' figures must be equal: seat 1 (Анна) has −18, seat 4 (Глеб) has −17."
        )
        assert "has -18" in refusal_text(unequal, as_written=True)


def test_a_refusal_translates_the_message_it_holds_and_cuts_a_long_value_short():
    hand = InvalidRecord(
        "%(what)s: %(reason)s",
        what=Phrase("%(seat)s's hand", seat=0),
        reason=CardError("unknown card %(code)s", code="Z" * 200),
    )
    with translation.override("en"):
        text = refusal_text(hand, as_written=True)
    assert text.startswith("seat 0's hand: unknown card ZZZ") and text.endswith("Z…")
    assert len(text) == len("seat 0's hand: unknown card ") + 80
    with translation.override("ru"):
        assert refusal_text(Stale("A player needs a name.")) == translation.gettext(
            "A player needs a name."
        )


def test_a_game_words_its_own_params_through_the_hook_it_passes():
    refusal = IllegalAction("You may not play %(card)s now.", card="TD")
    assert refusal_text(refusal, words={"card": lambda code: f"<{code}>"}) == (
        "You may not play <TD> now."
    )
    assert "TD" not in message_text(refusal) and "10" in message_text(refusal)


def test_the_refusals_the_engines_raise_import_no_django():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, core.refusals, games.engine.base; "
            "assert not any(m.startswith('django') for m in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def console_output(action) -> str:
    """What the console log handler writes while ``action`` runs."""
    (handler,) = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RefusalsInOneLine) for f in h.filters)
    ]
    written = io.StringIO()
    former = handler.setStream(written)
    try:
        action()
    finally:
        handler.setStream(former)
    return written.getvalue()


@pytest.mark.django_db
def test_a_refused_request_is_logged_in_one_line_and_a_failure_with_its_traceback(host_client):
    denied = console_output(
        lambda: host_client.get(reverse("tournament-new", args=["fantan"]))  # not a director
    )
    assert "Forbidden (Permission denied): /tournaments/" in denied
    assert "Traceback" not in denied and len(denied.strip().splitlines()) == 1

    def failure():
        try:
            raise RuntimeError("a defect")
        except RuntimeError as exc:
            log_response(
                "Internal Server Error: %s", "/x", response=HttpResponse(status=500), exception=exc
            )

    failed = console_output(failure)
    assert "Traceback" in failed and "RuntimeError: a defect" in failed
