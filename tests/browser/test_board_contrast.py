"""Every text on a game's board is readable on the board's background
(WCAG AA: a contrast ratio of at least 4.5:1) — "No call yet." was grey on green, 1.36:1."""

import pytest

from games import registry, services
from tests.support.browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

# Each text node's colour, and the colour of the nearest ancestor with an opaque background.
COLOURS = """board => {
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  const found = [];
  const opaque = c => c && c !== "transparent" && !/rgba\\(.*, 0\\)$/.test(c);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || !el.checkVisibility() || el.closest(".visually-hidden")) continue;
    let back = el;
    while (back && !opaque(getComputedStyle(back).backgroundColor)) back = back.parentElement;
    if (!back || !board.contains(back)) continue;  // a text on the page's paper, not the board
    found.push([text, getComputedStyle(el).color, getComputedStyle(back).backgroundColor]);
  }
  return found;
}"""


def luminance(css: str) -> float:
    r, g, b = (int(float(v)) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])

    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_board_texts_are_readable_on_the_board(open_page, user, key):
    rules = registry.game(key).rules
    seats = rules.seats(rules.parse_options({}))
    names = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"][:seats]
    table = services.start_table(user=user, game=key, players=names, options={}, seed=7)
    page = open_page()
    open_table(page, table)
    unreadable = [
        (text, colour, back, round(contrast(colour, back), 2))
        for text, colour, back in page.locator(".board").first.evaluate(COLOURS)
        if contrast(colour, back) < 4.5
    ]
    assert not unreadable
