"""A deal's replay: a finished deal stepped through move by move, every
hand open, at the host's and the spectators' addresses; a record file anyone uploads, replayed
the same way; and, in a real browser, the keys and the buttons that step.

Each step's page is compared with the engine: the record the page reads (``selectors.record``)
replayed by ``games.engine.records`` to the same step."""

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from playwright.sync_api import expect

from games import registry, selectors, services
from games.engine.records import replay, start
from games.page_data import LogEntry
from games.templatetags.cards import card_name
from tests.support.browser import off_the_loop, sign_in
from tests.support.commands import NOT_A_RECORD, not_a_record, valid_record
from tests.support.hotseat import HTMX, act, current, leaked_cards, scrub, url

GAME_KEYS = sorted(registry.GAMES)
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
UPLOAD = "/replay/"
pytestmark = pytest.mark.any_database


# -- tables and deals -----------------------------------------------------------------------


def start_table(game: str, host, players, seed=7):
    """A table of ``game`` with its default options, as many players as it seats."""
    rules = registry.game(game).rules
    seats = rules.seats(rules.parse_options({}))
    return services.start_table(
        user=host, game=game, players=players[:seats], options={}, seed=seed
    )


def finish_deal(table, user):
    """Play the current deal to its end through the services (the choices vary)."""
    for choose in range(1000):
        if current(table).is_over:
            return current(table)
        act(table, choose=choose, user=user)
    raise AssertionError("the deal did not end")


@pytest.fixture(params=GAME_KEYS, ids=GAME_KEYS)
def finished(request, db, host, players):
    """A table of each game whose first deal is over."""
    table = start_table(request.param, host, players)
    finish_deal(table, host)
    return table


def replay_url(table, number=1, step=None, spectator=False) -> str:
    base = (
        f"/watch/{table.watch_key}/deals/{number}/replay/"
        if spectator
        else url(table, f"deals/{number}/replay/")
    )
    return base if step is None else f"{base}?step={step}"


# -- what a page shows ---------------------------------------------------------------------


def english_names(codes) -> list[str]:
    with translation.override("en"):
        return sorted(card_name(code) for code in codes)


def hands_shown(page: str) -> dict[int, list[str]]:
    """Each seat's open hand on a replay page: the spoken names of its cards, sorted."""
    return {
        int(seat): sorted(
            html.unescape(label)
            for label in re.findall(r'class="card" role="img" aria-label="([^"]+)"', cards)
        )
        for seat, cards in re.findall(r'data-seat="(\d+)">(.*?)</div>', page, re.S)
    }


def step_shown(page: str) -> tuple[int, int]:
    found = re.search(r"Step (\d+) of (\d+)", page)
    return int(found.group(1)), int(found.group(2))


def action_shown(page: str) -> str:
    found = re.search(r'<p class="replay-action"[^>]*>(.*?)</p>', page, re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def result_scores(page: str) -> list[int]:
    """The last cell of each row of the result's table: every game's score column."""
    body = re.search(r'<table class="result">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return [
        int(re.findall(r"<td>([^<]*)</td>", row)[-1])
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def alert(response) -> str:
    found = re.search(r'role="alert">\s*([^<]+)', response.content.decode())
    return html.unescape(found.group(1)).strip() if found else ""


def wording(game_key: str, action: dict, players: list[str]) -> str:
    """The log's wording of a record's action, in English."""
    game = registry.game(game_key)
    entry = LogEntry(name=players[action["seat"]], action=action, taken_back=False, players=players)
    with translation.override("en"):
        text = game.presenter.log_text(entry)
    return " ".join(html.unescape(text).split())


def check_steps(get, record: dict, players: list[str], steps=None):
    """Step the replay from 0 to its last step (or through ``steps``): each page shows every
    seat's hand as the engine has it after that many actions, the action just taken as the
    log words it, and the last the result's scores (once the record's deal is over).
    ``get(step)``: the page's HTML."""
    state, actions = start(record)
    seats = len(state.view(None)["counts"])
    done = 0
    for step in range(len(actions) + 1) if steps is None else steps:
        while done < step:
            state.apply(actions[done])
            done += 1
        page = get(step)
        assert step_shown(page) == (step, len(actions))
        assert hands_shown(page) == {
            seat: english_names(state.view(seat)["hand"]) for seat in range(seats)
        }, f"step {step}"
        if step:
            canonical = state.canonical(actions[step - 1])
            assert action_shown(page) == wording(record["game"], canonical, players)
        else:
            assert action_shown(page).startswith("The deal as dealt")
        if step == len(actions) and replay(record).complete:
            assert result_scores(page) == replay(record).result()["scores"]
        else:
            assert '<table class="result">' not in page
    return len(actions)


# -- a table's finished deal ----------------------------------------------------------------


@pytest.mark.django_db
def test_every_step_of_a_finished_deal_shows_every_hand_as_the_engine_has_it(host_client, finished):
    deal = current(finished)
    record = selectors.record(deal)
    players = selectors.names(finished)

    def get(step):
        response = host_client.get(replay_url(finished, step=step), **EN)
        assert response.status_code == 200
        return response.content.decode()

    last = check_steps(get, record, players)
    assert last > 10
    assert result_scores(get(last)) == deal.result["scores"]
    # a step beyond either end shows the end
    assert step_shown(get(last + 5)) == (last, last)
    assert step_shown(get(-3)) == (0, last)


@pytest.mark.django_db
def test_the_spectators_replay_and_htmx_steps(client, finished):
    record = selectors.record(current(finished))
    players = selectors.names(finished)

    def get(step):
        response = client.get(replay_url(finished, step=step, spectator=True), **EN, **HTMX)
        assert response.status_code == 200
        page = response.content.decode()
        assert page.lstrip().startswith('<div id="replay"') and "<html" not in page  # the panel
        assert 'id="replay-announce"' in page and 'hx-swap-oob="true"' in page
        assert finished.token not in page  # a spectator never learns the host's address
        return page

    last = len(record["actions"])
    check_steps(get, record, players, steps=[0, 1, 2, last - 1, last])
    page = client.get(replay_url(finished, spectator=True), **EN).content.decode()
    assert step_shown(page) == (0, last)
    assert f'href="/watch/{finished.watch_key}/deals/1/record.json"' in page
    assert f'href="/watch/{finished.watch_key}/"' in page


@pytest.mark.django_db
def test_the_step_links_work_without_javascript(host_client, finished):
    page = host_client.get(replay_url(finished, step=1), **EN).content.decode()
    path = replay_url(finished)
    for key, step in (("first", 0), ("previous", 0), ("next", 2)):
        assert re.search(rf'data-step-key="{key}" href="{re.escape(path)}\?step={step}"', page)
    last = len(selectors.record(current(finished))["actions"])
    assert re.search(rf'data-step-key="last" href="{re.escape(path)}\?step={last}"', page)
    first = host_client.get(path, **EN).content.decode()
    for key in ("first", "previous"):  # nothing before the first step
        assert re.search(rf'data-step-key="{key}" role="link" aria-disabled="true">', first)
    assert host_client.get(path + "?step=x", **EN).status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAME_KEYS)
def test_an_unfinished_deal_is_not_replayed_and_no_hand_is_shown(client, host, players, game):
    table = start_table(game, host, players)
    for choose in range(3):
        act(table, choose=choose, user=host)
    state = selectors.load(current(table)).state
    in_hands = [
        code for seat in range(len(state.view(None)["counts"])) for code in state.view(seat)["hand"]
    ]
    client.force_login(host)
    for address in (
        replay_url(table),
        replay_url(table, step=2),
        replay_url(table, spectator=True),
    ):
        response = client.get(address, **EN)
        assert response.status_code == 409
        page = response.content.decode()
        assert "once the deal is over" in page
        assert 'class="hand' not in page
        assert leaked_cards(scrub(page, table), sorted(set(in_hands))) == []


@pytest.mark.django_db
def test_who_may_open_a_replay(client, django_user_model, host, players):
    table = start_table("fantan", host, players)
    finish_deal(table, host)
    assert client.get(replay_url(table)).status_code == 302  # a visitor: sign in first
    other = django_user_model.objects.create_user("other", password="pw-for-tests-only")
    client.force_login(other)
    assert client.get(replay_url(table)).status_code == 403
    assert client.get(replay_url(table, spectator=True)).status_code == 200
    client.force_login(host)
    assert client.get(replay_url(table, number=2)).status_code == 404
    assert client.get(f"/watch/{'x' * 20}/deals/1/replay/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_finished_deal_and_its_score_rows_link_to_the_replay(
    host_client, client, host, players, game
):
    table = start_table(game, host, players)
    finish_deal(table, host)
    page = host_client.get(url(table), **EN).content.decode()
    address = replay_url(table)
    assert f'href="{address}">Replay the deal step by step</a>' in page
    assert page.count(f'href="{address}"') == 2  # beside the download, and in the score row
    spectators = client.get(f"/watch/{table.watch_key}/", **EN).content.decode()
    assert spectators.count(f'href="{replay_url(table, spectator=True)}"') == 2
    if registry.game(game).rules.cycle(table.options):
        cycle = current(table).cycle.number
        sheet = host_client.get(url(table, f"cycles/{cycle}/"), **EN).content.decode()
        assert f'href="{address}"' in sheet


# -- an uploaded record ------------------------------------------------------------------------


def upload(client, content: bytes, name="deal.json", **extra):
    return client.post(
        UPLOAD, {"file": SimpleUploadedFile(name, content, "application/json")}, **extra
    )


def carried(page: str) -> dict:
    """The fields with which the page asks for another step of its record."""
    return {
        name: html.unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="(record|name)" value="([^"]*)"', page
        )
    }


@pytest.mark.django_db
def test_the_upload_page_is_open_to_anyone(client):
    response = client.get(UPLOAD, **EN)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'type="file" name="file"' in page and 'enctype="multipart/form-data"' in page
    assert "Replay a deal record" in page


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAME_KEYS)
def test_an_uploaded_record_replays_step_by_step(client, host, players, game):
    table = start_table(game, host, players)
    record = selectors.record(finish_deal(table, host))
    first = upload(client, json.dumps(record, indent=1).encode(), name="my deal.json", **EN)
    assert first.status_code == 200
    fields = carried(first.content.decode())
    assert json.loads(fields["record"]) == record and fields["name"] == "my deal.json"
    seats = len(record["hands"])
    players = [f"Seat {seat}" for seat in range(seats)]

    def get(step):
        if step == 0:
            return first.content.decode()
        response = client.post(UPLOAD, {**fields, "step": step}, **EN, **HTMX)
        assert response.status_code == 200
        page = response.content.decode()
        assert carried(page) == fields  # the page carries the record on
        return page

    last = len(record["actions"])
    check_steps(get, record, players, steps=[0, 1, 2, last // 2, last])
    assert step_shown(get(last + 3)) == (last, last)


@pytest.mark.django_db
def test_a_record_written_by_hand_replays_as_the_command_reads_it(client):
    record = valid_record("fantan")
    play = record["actions"][0]
    record["actions"] = [{**play, "play": play["play"].lower()}]  # "9h": a card the rules read
    page = upload(client, json.dumps(record).encode(), **EN).content.decode()
    record["actions"] = [play]
    check_steps(
        lambda step: (
            page
            if step == 0
            else client.post(UPLOAD, {**carried(page), "step": step}, **EN).content.decode()
        ),
        record,
        ["Seat 0", "Seat 1", "Seat 2", "Seat 3"],
    )
    last = client.post(UPLOAD, {**carried(page), "step": 1}, **EN).content.decode()
    assert "The record stops here" in last  # the deal is not over: no result


BROKEN = {
    "not_json": (
        b'{"game": "variety", "dealer": 0,',
        "deal.json: not a valid record: not JSON: "
        "Expecting property name enclosed in double quotes: line 1 column 33 (char 32)",
    ),
    "not_utf8": (
        b'{"game": "variety", "say": "\xff"}',
        "deal.json: not a valid record: not UTF-8 text (byte 28)",
    ),
    "option_of_the_wrong_type": (
        json.dumps({**valid_record("variety"), "options": {"cycle": ["full"]}}).encode(),
        'deal.json: not a valid record: cycle must be "full" or "short"',
    ),
    "an_unknown_card_in_a_hand": (
        json.dumps(
            {
                **valid_record("leopard"),
                "hands": [
                    ["ZZ"] + valid_record("leopard")["hands"][0][1:],
                    valid_record("leopard")["hands"][1],
                ],
            }
        ).encode(),
        "deal.json: not a valid record: seat 0's hand: unknown card 'ZZ'",
    ),
    "illegal_action": (
        json.dumps({**valid_record("fantan"), "actions": [{"seat": 2, "pass": True}]}).encode(),
        'deal.json: illegal action 0 {"seat": 2, "pass": true}: It is not your turn: '
        "seat 1 is to act.",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("content, message", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_record_gets_a_clear_message_and_a_400(client, content, message):
    response = upload(client, content, **EN)
    assert response.status_code == 400
    assert alert(response) == message
    assert 'type="file" name="file"' in response.content.decode()  # try another


@pytest.mark.django_db
@pytest.mark.parametrize("name", NOT_A_RECORD)
def test_what_the_replay_command_refuses_the_page_refuses_in_its_words(client, name):
    document = not_a_record("variety", name)
    content = (document if isinstance(document, str) else json.dumps(document)).encode()
    response = upload(client, content, **EN)
    assert response.status_code == 400
    message = alert(response)
    assert message.startswith("deal.json: not a valid record: ")
    assert NOT_A_RECORD[name][1] in message


@pytest.mark.django_db
def test_a_record_beyond_the_size_limit_is_refused_before_it_is_read(client):
    big = json.dumps({**valid_record("fantan"), "padding": "x" * 300_000}).encode()
    response = upload(client, big, **EN)
    assert response.status_code == 400
    assert alert(response) == "deal.json: not a valid record: larger than 256 KiB: not read"


@pytest.mark.django_db
def test_a_damaged_or_missing_record_on_a_step_is_refused(client):
    response = client.post(
        UPLOAD, {"record": '{"game": "fantan"', "name": "x.json", "step": 1}, **EN, **HTMX
    )
    assert response.status_code == 400
    assert alert(response).startswith("x.json: not a valid record: not JSON")
    assert response.content.decode().lstrip().startswith('<div id="replay"')  # the panel, swapped
    page = upload(client, json.dumps(valid_record("fantan")).encode(), **EN).content.decode()
    assert client.post(UPLOAD, {**carried(page), "step": "two"}, **EN).status_code == 400
    response = client.post(UPLOAD, {}, **EN)
    assert response.status_code == 400 and "Choose a deal record" in alert(response)
    big = {"record": json.dumps({**valid_record("fantan"), "padding": "x" * 300_000}), "step": 0}
    response = client.post(UPLOAD, big, **EN)
    assert response.status_code == 400 and "larger than 256 KiB" in alert(response)


@pytest.mark.django_db
def test_a_broken_record_is_refused_in_russian_for_a_russian_reader(client):
    content = json.dumps({**valid_record("variety"), "options": {"cycle": ["full"]}}).encode()
    message = alert(upload(client, content, **RU))
    assert "cycle" in message and "not a valid" not in message and "must be" not in message
    content = json.dumps({**valid_record("fantan"), "actions": [{"seat": 2, "pass": True}]})
    message = alert(upload(client, content.encode(), **RU))
    assert "место 1" in message and "turn" not in message


# -- in a browser -----------------------------------------------------------------------------


def open_replay(page, table, step=None):
    address = replay_url(table, step=step)
    page.goto("/accounts/login/?next=" + address)
    sign_in(page)
    page.wait_for_url(f"**{address}")


def shown_step(page) -> int:
    return int(re.search(r"Step (\d+) of", page.locator("#replay-step").inner_text()).group(1))


def wait_for_step(page, step: int):
    page.locator("#replay-step", has_text=re.compile(rf"^Step {step} of")).wait_for()


def browser_hands(page) -> dict[int, list[str]]:
    return {
        int(hand.get_attribute("data-seat")): sorted(
            hand.locator(".card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        )
        for hand in page.locator(".open-hands .hand").all()
    }


@pytest.mark.browser
@pytest.mark.usefixtures("transactional_db")
def test_stepping_with_the_arrow_keys_and_the_buttons(open_page, user):
    players = ["Anna", "Boris", "Vera", "Gleb"]
    table = off_the_loop(lambda: finish_deal(start_table("variety", user, players), user).table)
    record = off_the_loop(lambda: selectors.record(current(table)))
    last = len(record["actions"])
    state, actions = start(record)
    states = [[english_names(state.view(seat)["hand"]) for seat in range(4)]]
    for action in actions:
        state.apply(action)
        states.append([english_names(state.view(seat)["hand"]) for seat in range(4)])

    page = open_page(viewport={"width": 1200, "height": 900})
    open_replay(page, table)
    assert shown_step(page) == 0
    assert browser_hands(page) == dict(enumerate(states[0]))
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        wait_for_step(page, step)
        assert browser_hands(page) == dict(enumerate(states[step]))
        assert page.url.endswith(f"?step={step}")
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, 2)
    page.keyboard.press("End")
    wait_for_step(page, last)
    assert page.locator("table.result").is_visible()
    assert browser_hands(page) == dict(enumerate(states[last]))
    page.keyboard.press("ArrowRight")  # nothing after the last step
    page.keyboard.press("Home")
    wait_for_step(page, 0)
    assert page.locator("table.result").count() == 0

    page.get_by_role("link", name="Next").click()
    wait_for_step(page, 1)
    # the focus comes back once htmx has settled the panel, a moment after the step shows
    expect(page.get_by_role("link", name="Next")).to_be_focused()
    page.keyboard.press("Enter")  # the focus stayed on the control that was pressed
    wait_for_step(page, 2)
    page.get_by_role("link", name="Previous").click()
    wait_for_step(page, 1)
    page.get_by_role("link", name="Last").click()
    wait_for_step(page, last)
    page.go_back()
    wait_for_step(page, 1)
    assert page.script_errors == []


@pytest.mark.browser
@pytest.mark.usefixtures("transactional_db")
def test_an_uploaded_record_steps_with_the_keys_and_the_buttons(open_page, user, tmp_path):
    players = ["Anna", "Boris", "Vera", "Gleb"]
    table = off_the_loop(lambda: finish_deal(start_table("fantan", user, players), user).table)
    record = off_the_loop(lambda: selectors.record(current(table)))
    path = tmp_path / "fantan deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    last = len(record["actions"])

    page = open_page(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page.goto(UPLOAD)
    page.get_by_label("Deal record").set_input_files(str(path))
    page.get_by_role("button", name="Replay it").click()
    wait_for_step(page, 0)
    page.wait_for_load_state()  # the keys are the page's deferred script's, run once it is parsed
    assert page.get_by_role("heading", level=1).inner_text().startswith("Fan-Tan")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 1)
    page.get_by_role("button", name="Next").click()
    wait_for_step(page, 2)
    for _ in range(5):  # pressed faster than the steps come: each is taken in turn
        page.keyboard.press("ArrowRight")
    wait_for_step(page, 7)
    page.keyboard.press("End")
    wait_for_step(page, last)
    assert page.locator("table.result").is_visible()
    page.get_by_role("button", name="First").click()
    wait_for_step(page, 0)
    assert page.get_by_role("button", name="Previous").is_disabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.script_errors == []
