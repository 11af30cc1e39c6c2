"""A table page's regions: what an answer to one of its moves carries.

The table (``templates/games/table.html#table``) is made of regions, each one element marked
``{% region "name" %}`` (``games.templatetags.tables``): its heading, its notes, the seats,
the board, the turn's panel, the log, the score sheet and, on a seat's own page, the parts
other apps add to it (``selectors.seat_page_part``). Each region's element carries the
digest of its HTML (``data-digest``). Every htmx request of the page for its table says
which digests it shows (the ``X-Regions`` header, ``static/js/regions.js``); the answer is
rendered whole, as always, but carries only the regions whose HTML differs, each out of
band in place of the one the page shows, and the table's own attributes (its live stamp)
in a header. A region the page shows is the same HTML byte for byte as the page rendered
afresh would show, so the page after the answer is that page.

The whole table is answered, as before, to a request that does not name every region (an
older page, a page that lost track), to a refusal (its message is announced afresh), and to
the full page.
"""

import json
import re

from django.utils.cache import patch_vary_headers

HEADER = "X-Regions"
NAMES = frozenset({"head", "notes", "seats", "board", "turn", "log", "scores", "parts"})
DIGEST = re.compile(r"[0-9a-f]{16}")
LONGEST = 1000  # characters of the header read at most: seven names and digests need 200


def shown(request) -> dict[str, str] | None:
    """The digest of each region the page asking shows (``name=digest``, comma-separated),
    if it names each region once, else None."""
    value = request.headers.get(HEADER, "")
    if not value or len(value) > LONGEST:
        return None
    digests = {}
    for item in value.split(","):
        name, _, digest = item.strip().partition("=")
        if name not in NAMES or name in digests or not DIGEST.fullmatch(digest):
            return None
        digests[name] = digest
    return digests if digests.keys() == NAMES else None


def answered(response, regions: dict | None, attributes: dict[str, str | None]) -> None:
    """The answer of a region-by-region request: its regions swap themselves in (out of
    band), nothing is swapped for the table, whose ``attributes`` (a value, or None for an
    attribute it has not) come in ``X-Table-Attributes``. Any answer of a table's address
    depends on the header."""
    patch_vary_headers(response, (HEADER,))
    if regions is not None:
        response["HX-Reswap"] = "none"
        response["X-Table-Attributes"] = json.dumps(attributes)
