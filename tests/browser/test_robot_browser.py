"""A robot at the table in a real browser against a real daphne process: its turn shows the
pause, the server plays it with nobody clicking, the page follows live, and at a practice
table the screen comes straight back to the person."""

import pytest

from club.models import Player
from games import selectors, services
from games.robot_seats import RobotSeat
from tests.support.hotseat import current

pytestmark = [pytest.mark.browser, pytest.mark.servers, pytest.mark.django_db(transaction=True)]


def test_the_server_plays_a_robots_turn_and_the_practice_tables_page_follows(served, tab, host):
    anna = Player.objects.create(name="Anna")
    for seed in range(50):  # a deal that the robot begins
        table = services.start_table(
            user=host, game="leopard", options={}, seed=seed, players=[anna, RobotSeat("club")]
        )
        if selectors.load(current(table)).state.to_act == 1:
            break
    (server,) = served(1, ROBOT_PAUSE="2")
    page = tab(server, host)
    page.goto(table.get_absolute_url())
    assert page.get_by_text("practice table").is_visible()
    thinking = page.get_by_role("heading", name="Robot 2 (club player) is thinking…")
    if current(table).version == 0:  # (the robot may have played while the page loaded)
        assert thinking.is_visible()
        held = selectors.load(current(table)).state.view(0)["hand"]
        assert page.locator("#table .hand .card").count() == len(held) > 0  # to look at
        assert page.locator("#table .hand button").count() == 0  # nothing of it to play yet
        assert page.locator("#table form[hx-trigger]").count() == 0  # the page asks nothing
    # nobody clicks: the server plays, and the page shows the person's turn
    page.locator("#table form[action$='/act']").first.wait_for()
    assert current(table).version > 0 and thinking.count() == 0
    assert not page.get_by_text("Pass the screen").count()
    assert page.locator("#table").get_by_text("Robot 2 (club player)").count() >= 1
    assert page.locator("#table .error").count() == 0
    assert not page.script_errors
    server.check()
