"""A table dealt from seeds fixed in advance (``Table.deal_seeds``): deal k is shuffled with
the k-th seed and dealt by seat (k − 1) mod n, so that two tables given the same seeds hold
the same cards seat by seat, whoever sits there, a robot too; its own pages (the shared
screen, a seat's own link) say which of the fixed deals is played, the same at every table,
and show the hands as any table's."""

import pytest

from games import registry, selectors, services
from games.robot_seats import RobotSeat
from tests.support.hotseat import act, current, leaked_cards, scrub, take_robot_turns, url

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
SEEDS = [101, 202, 303]


def start(host, players, **kwargs):
    return services.start_table(
        user=host, game="fantan", players=players, options={}, deal_seeds=SEEDS, **kwargs
    )


def play_out(table, host):
    """The current deal to its end: the people's turns through the services, the robots'
    as a serving process takes them."""
    for choose in range(2000):
        deal = current(table)
        if deal.is_over:
            return
        state = selectors.load(deal).state
        if selectors.played_by_robots(table)[state.to_act]:
            take_robot_turns()
        else:
            act(table, choose=choose, user=host)
    raise AssertionError("the deal did not end")


def shown_codes(html: str, codes) -> set[str]:
    return {leak.split(" as ")[0] for leak in leaked_cards(html, codes)}


def dealt(table) -> list[tuple[int, dict]]:
    return [(d.dealer, d.dealt) for d in table.deals.order_by("number")]


def test_two_tables_with_the_same_seeds_hold_the_same_hands_seat_by_seat(host, players):
    first = start(host, players)
    # other players, in another order, a robot in the third seat
    second = start(host, [players[3], players[1], RobotSeat("club"), players[0]])
    rules = registry.rules("fantan")
    options = first.options
    for number in (1, 2, 3):
        for table in (first, second):
            deal = current(table)
            assert deal.number == number
            assert deal.dealer == (number - 1) % 4
            assert deal.seed == SEEDS[number - 1]
            # dealt by the game's own rules from that seed and dealer, nothing else
            assert deal.dealt == rules.new_deal(options, deal.dealer, SEEDS[number - 1]).dealt
        assert current(first).dealt == current(second).dealt
        for table in (first, second):
            play_out(table, host)
            services.next_deal(table=table, after=number, user=host)
    assert dealt(first)[:3] == dealt(second)[:3]
    # past its fixed deals, a table deals as any other: by the next seat, its own shuffle
    fourth = current(first)
    assert fourth.number == 4 and fourth.dealer == 3 and fourth.seed not in SEEDS


def test_another_seed_gives_other_hands_and_a_table_without_seeds_draws_its_dealer(host, players):
    fixed = start(host, players)
    other = services.start_table(
        user=host, game="fantan", players=players, options={}, deal_seeds=[999]
    )
    assert current(fixed).dealt != current(other).dealt
    free = services.start_table(user=host, game="fantan", players=players, options={}, seed=7)
    assert free.deal_seeds == [] and current(free).seed not in SEEDS


def test_the_tables_own_pages_say_which_fixed_deal_is_played_and_show_the_hands(
    host_client, host, players
):
    table = start(host, players, devices={1})
    page = host_client.get(url(table), **EN).content.decode()
    assert "Deal 1 of 3, the same at every table" in page
    seat = table.seats.get(position=1)
    own = host_client.get(seat.get_absolute_url(), **EN).content.decode()
    assert "Deal 1 of 3, the same at every table" in own
    # the seat's own hand, as any table's seat page shows it, and no other
    hands = current(table).dealt["hands"]
    assert shown_codes(scrub(own, table), hands[1]) == set(hands[1])
    others = [code for s, hand in enumerate(hands) if s != 1 for code in hand]
    assert not shown_codes(scrub(own, table), others)
    # the spectators of a table no app withholds from see it too, as ever
    watched = host_client.get(table.get_watch_url(), **EN).content.decode()
    assert "Deal 1 of 3, the same at every table" in watched
    assert "Log of the deal" in watched


def test_a_table_without_fixed_deals_says_nothing_of_them(host_client, host, players):
    table = services.start_table(user=host, game="fantan", players=players, options={}, seed=7)
    assert "the same at every table" not in host_client.get(url(table), **EN).content.decode()
