"""The club's tests by area: core, club, games, tables, tournaments, ratings, browser,
servers; what they share is in tests/support/."""

import pytest

# The shared helpers' asserts explain a failure as a test's own do.
pytest.register_assert_rewrite("tests.support")
