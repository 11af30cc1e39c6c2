"""What the tests share: helpers, fixtures (the conftest files offer them), a throw-away
fourth game (``duel``) and the documents the tests read. No tests here."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"  # the rules' worked tournaments (docs/rules/tournaments.md)
DOCUMENTS = HERE / "tournament_documents"  # tournament documents imported by the tests
