"""A robot at the table in a real browser: its turn shows the pause, the page asks
it to play by itself, and at a practice table the screen comes straight back to the person."""

import pytest

from club.models import Player
from games import selectors, services
from games.robots import RobotSeat
from tests.support.browser import open_table, version
from tests.support.hotseat import current

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


def test_a_robot_plays_its_turn_by_itself_after_a_pause_at_a_practice_table(open_page, user):
    anna = Player.objects.create(name="Anna")
    for seed in range(50):  # a deal that the robot begins
        table = services.start_table(
            user=user, game="leopard", options={}, seed=seed, players=[anna, RobotSeat("club")]
        )
        if selectors.load(current(table)).state.to_act == 1:
            break
    page = open_page()
    open_table(page, table)
    assert page.get_by_text("practice table").is_visible()
    thinking = page.get_by_role("heading", name="Robot 2 (club player) is thinking…")
    assert thinking.is_visible()
    held = selectors.load(current(table)).state.view(0)["hand"]
    assert page.locator("#table .hand .card").count() == len(held) > 0  # his hand, to look at
    assert page.locator("#table .hand button").count() == 0  # nothing of it to play yet
    start = version(page)
    # nobody clicks: the page asks the robot to play, and the person has the screen back
    page.locator("#table form[action$='/act']").first.wait_for()
    assert version(page) > start and thinking.count() == 0
    assert not page.get_by_text("Pass the screen").count()
    assert page.locator("#table").get_by_text("Robot 2 (club player)").count() >= 1
    assert page.locator("#table .error").count() == 0
    assert not page.script_errors
