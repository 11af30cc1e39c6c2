"""The club's tests by area: games, tables, tournaments, club, browser, servers; what they
share is in tests/support/."""

import pytest

# The shared helpers' asserts explain a failure as a test's own do.
pytest.register_assert_rewrite("tests.support")
