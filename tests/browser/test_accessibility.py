"""No WCAG 2.1 AA violation that axe-core finds, on every kind of page, in both languages, on a
phone and on a laptop, in a real browser: Debian's chromium and Playwright.

The pages and their data come from tests/support/site_pages.py: the home page, each game's rules and
new-table form, a table of each game in each phase of a deal (the hand-off screen, each kind
of turn, a card chosen, the deal over), the score sheets, the spectators' pages, the replays,
the replay upload, sign-in, the members' and the account pages, each game's seat pages on
devices and its shared screen waiting for one, and a tournament's public and directors' pages
and a table's entry link. axe-core comes with axe-playwright-python (its axe.min.js, put into each
page by the browser: nothing is fetched). The rules run are those tagged wcag2a, wcag2aa,
wcag21a and wcag21aa.

To keep the time down: one browser, one tab a screen size, the two tabs checking at once
(two renderers: two cores). Each page is checked in both languages and at both sizes, the
languages crossed with the sizes: one page in English on the phone and in Russian on the
laptop, the next the other way round, so that every pairing is checked on half the pages
(four checks of each page took four minutes on a slow machine).
"""

import re

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings

from tests.support import site_pages
from tests.support.browser import off_the_loop, require_chromium
from tests.support.servers import Member

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES = {
    "phone": dict(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    ),
    "laptop": dict(viewport={"width": 1280, "height": 800}),
}
LANGUAGES = [code for code, _ in settings.LANGUAGES]
STATUS = {"not found": 404}  # every other page answers 200

# axe.run on the page, started once this call has returned (the run's work is mostly one long
# task) and kept on window until it is collected: so that the other tab loads meanwhile
START = """tags => { window.axeRun = new Promise(resolve => setTimeout(() => resolve(axe.run(
    document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]},
).then(r => r.violations)), 0)); }"""


def described(violation: dict) -> list[str]:
    """A violation as lines a person can act on: the rule, and each element with its markup
    and what to fix."""
    lines = [f"{violation['id']} ({violation['impact']}): {violation['help']}"]
    for node in violation["nodes"]:
        lines.append(f"    {' '.join(map(str, node['target']))}: {node['html'][:200]}")
        lines += ["        " + line for line in node["failureSummary"].splitlines()[1:]]
    return lines


def test_every_page_in_both_languages_on_a_phone_and_a_laptop_has_no_wcag_aa_violation(
    chromium, live_server, django_user_model
):
    require_chromium()
    user = django_user_model.objects.create_user(
        "director", password="pw-for-tests-only", is_staff=True
    )
    visitor, member = off_the_loop(site_pages.build, user)
    tabs, elsewhere = {}, []
    for size, options in SIZES.items():
        context = chromium.get().new_context(base_url=live_server.url, **options)
        context.set_default_timeout(20_000)
        context.add_init_script(script=AXE_SCRIPT)
        tab = context.new_page()
        # the live server speaks no websocket: the pages' sockets are answered here, silently
        tab.route_web_socket(re.compile(r"/ws/"), lambda ws: None)
        # nothing is fetched from anywhere but the site (axe-core included)
        tab.on(
            "request",
            lambda r: (
                elsewhere.append(r.url)
                if not r.url.startswith((live_server.url, "data:"))
                else None
            ),
        )
        tabs[size] = tab
    report, checked = [], 0
    try:
        for signed_in, addresses in ((False, visitor), (True, member)):
            if signed_in:
                for tab in tabs.values():
                    tab.context.add_cookies(
                        [
                            {"name": name, "value": value, "url": live_server.url}
                            for name, value in Member(user).cookies.items()
                        ]
                    )
            for index, (name, address) in enumerate(addresses):
                turn = index % 2
                languages = dict(zip(tabs, LANGUAGES[turn:] + LANGUAGES[:turn], strict=True))
                for size, tab in tabs.items():  # both tabs load and start checking...
                    tab.set_extra_http_headers({"Accept-Language": languages[size]})
                    response = tab.goto(address)
                    assert response.status == STATUS.get(name, 200), (name, address)
                    assert tab.locator("html").get_attribute("lang") == languages[size]
                    tab.evaluate(START, TAGS)
                for size, tab in tabs.items():  # ...then their findings are collected
                    for violation in tab.evaluate("() => window.axeRun"):
                        report.append(f"{name} ({address}), {languages[size]}, {size}:")
                        report += described(violation)
                    checked += 1
    finally:
        for tab in tabs.values():
            tab.context.close()
    assert checked == len(SIZES) * (len(visitor) + len(member))
    assert elsewhere == []
    assert not report, "WCAG 2.1 AA violations found by axe:\n" + "\n".join(report)
