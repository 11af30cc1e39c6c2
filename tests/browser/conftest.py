"""The browser tests' own fixtures (pytest finds one by its name)."""

from tests.support.phone_screen import phone  # noqa: F401 (fixtures)
