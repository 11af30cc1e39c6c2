"""A phone's tab on the live server, signed in (``phone``, a fixture that
tests/browser/conftest.py offers), its size, and the screenshots kept with PHONE_SHOTS=dir."""

import os
import re

import pytest
from django.test import Client

WIDTH, HEIGHT = 390, 844


PHONE = dict(is_mobile=True, has_touch=True)  # the page's meta viewport counts, as on a phone
SHOTS = os.environ.get("PHONE_SHOTS")


@pytest.fixture
def phone(chromium, live_server, member):
    """phone(width=390, language="en"): a signed-in tab of that width on the live server."""
    client = Client()
    client.force_login(member)
    session = client.cookies["sessionid"].value
    contexts = []

    def open_phone(width=WIDTH, language="en", signed_in=True):
        context = chromium.get().new_context(
            locale={"en": "en-US", "ru": "ru-RU"}[language],
            base_url=live_server.url,
            viewport={"width": width, "height": HEIGHT},
            **PHONE,
        )
        contexts.append(context)
        context.set_default_timeout(10_000)
        if signed_in:
            context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws/"), lambda ws: None)  # WSGI: no live socket
        page.script_errors = []
        page.on("pageerror", lambda error: page.script_errors.append(str(error)))
        return page

    yield open_phone
    for context in contexts:
        context.close()


def shot(page, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))
