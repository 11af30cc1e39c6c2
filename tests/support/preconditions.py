"""What a test needs of the machine that may be missing: a skip with the reason, or a
failure under CI, where every precondition must hold."""

import os

import pytest


def unavailable(reason: str):
    """Skip with the reason; under CI, where every precondition must hold, fail instead."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (required under CI)")
    pytest.skip(reason)
