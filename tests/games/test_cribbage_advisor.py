"""The discard advisor (`games.cribbage.discard`): exact expectations, cross-checked against
plain enumeration with `score_hand` (a different method: it scores every crib one by one)."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cribbage import (
    ADVICE_ERROR_CODES,
    DECK,
    ERROR_CODES,
    AdviceError,
    CribbageError,
    advise_discard,
    parse_cards,
)
from games.cribbage.advise import main as advise_main
from games.cribbage.discard import advise_by_enumeration


def _same(fast, slow):
    assert len(fast.options) == len(slow.options)
    for option in fast.options:
        other = slow.option_for(option.keep)
        assert other is not None
        assert option.discard == other.discard
        assert option.hand_counts == other.hand_counts
        assert option.hand_points == other.hand_points
        assert (option.crib_points, option.crib_cases) == (other.crib_points, other.crib_cases)
    assert [o.net_exact for o in fast.options] == [o.net_exact for o in slow.options]


@pytest.mark.parametrize("seed", range(12))
def test_equals_enumeration_on_random_deals_with_cards_seen(seed):
    # Many cards seen keep the brute force small (it scores every crib case one by one).
    rng = random.Random(seed)
    players = (2, 3, 4)[seed % 3]
    size = 6 if players == 2 else 5
    cards = rng.sample(DECK, size + 30)
    dealt, seen = cards[:size], cards[size:]
    dealer = seed % 2 == 0
    _same(
        advise_discard(dealt, dealer=dealer, players=players, seen=seen),
        advise_by_enumeration(dealt, dealer=dealer, players=players, seen=seen),
    )


def test_equals_enumeration_on_a_flush_and_jacks_deal():
    # Suited discards (crib flush) and jacks (nobs, both kept and thrown) on purpose.
    dealt = "JH 5H 9H QH JS 4C"
    seen = [card for card in DECK if card.rank in (2, 3, 7, 8, 12) and card.suit != "H"][:20]
    for dealer in (True, False):
        _same(
            advise_discard(dealt, dealer=dealer, seen=seen),
            advise_by_enumeration(dealt, dealer=dealer, seen=seen),
        )


def test_equals_enumeration_on_a_full_deal_for_two_discards():
    # Nothing seen: the crib cases of two discards checked one by one (91,080 scorings).
    advice = advise_discard("5H 5D JS 6C 4H KD", dealer=True)
    cards = [c for c in DECK if c not in parse_cards("5H 5D JS 6C 4H KD")]
    from itertools import combinations

    from games.cribbage import score_hand

    for option in advice.options[:2]:
        points = cases = 0
        for extra in combinations(cards, 2):
            for starter in cards:
                if starter not in extra:
                    points += score_hand([*option.discard, *extra], starter, crib=True).total
                    cases += 1
        assert (option.crib_points, option.crib_cases) == (points, cases)
        assert cases == 1035 * 44


def test_known_deal_ranks_the_double_five_hand_first():
    advice = advise_discard("5H 5D JS 6C 4H KD", dealer=True)
    assert len(advice.options) == 15
    assert advice.unseen == 46
    best = advice.best
    assert [str(c) for c in best.discard] == ["JS", "KD"]
    assert [str(c) for c in best.keep] == ["5H", "5D", "6C", "4H"]
    # 4 5 5 6: at least 12 with any starter (two fifteens and a double run of 3 with a pair)
    assert best.hand_min == 12
    assert best.hand_max == 24
    assert best.hand_good_chance == 1.0
    assert best.hand_points == sum(p * n for p, n in enumerate(best.hand_counts))
    assert sum(best.hand_counts) == 46
    # the worst: throwing both fives to the crib
    worst = advice.options[-1]
    assert [str(c) for c in worst.discard] == ["5H", "5D"]
    assert round(worst.crib_mean, 3) == 8.793


def test_pone_subtracts_the_crib():
    mine = advise_discard("5H 5D JS 6C 4H KD", dealer=True)
    theirs = advise_discard("5H 5D JS 6C 4H KD", dealer=False)
    for option in mine.options:
        other = theirs.option_for(option.keep)
        crib = Fraction(option.crib_points, option.crib_cases)
        assert option.net_exact - other.net_exact == 2 * crib


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"dealt": "5H 5D JS 6C 4H"}, "wrong_count"),
        ({"dealt": "5H 5D JS 6C 4H KD", "players": 3}, "wrong_count"),
        ({"dealt": "5H 5D JS 6C 4H XX"}, "bad_card"),
        ({"dealt": "5H 5D JS 6C 4H 5H"}, "duplicate_card"),
        ({"dealt": "5H 5D JS 6C 4H KD", "seen": "KD"}, "duplicate_card"),
        ({"dealt": "5H 5D JS 6C 4H KD", "players": 5}, "bad_player_count"),
        (
            {
                "dealt": "5H 5D JS 6C 4H KD",
                "seen": [c for c in DECK if c not in parse_cards("5H 5D JS 6C 4H KD")][2:],
            },
            "too_many_seen",
        ),
    ],
)
def test_errors_have_stable_codes(kwargs, code):
    dealt = kwargs.pop("dealt")
    with pytest.raises(AdviceError) as info:
        advise_discard(dealt, dealer=True, **kwargs)
    assert info.value.code == code
    assert code in ERROR_CODES and code in ADVICE_ERROR_CODES
    assert isinstance(info.value, CribbageError)


def test_three_and_four_players_throw_one_card():
    advice = advise_discard("5H 5D JS 6C 4H", dealer=False, players=3)
    assert len(advice.options) == 5
    assert all(len(o.discard) == 1 for o in advice.options)
    # 3 unknown crib cards and the starter out of 47 unseen cards
    assert advice.best.crib_cases == 16215 * 44


deals = st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)


@given(deals)
def test_dealer_net_at_least_hand_at_least_pone_net(dealt):
    mine = advise_discard(dealt, dealer=True)
    theirs = advise_discard(dealt, dealer=False)
    for option in mine.options:
        hand = Fraction(option.hand_points, option.starters)
        other = theirs.option_for(option.keep)
        assert option.net_exact >= hand >= other.net_exact
        assert option.hand_min <= option.hand_mean <= option.hand_max
        assert 0 <= option.hand_good_chance <= 1
    nets = [o.net_exact for o in mine.options]
    assert nets == sorted(nets, reverse=True)


@given(deals)
def test_order_of_the_dealt_cards_does_not_matter(dealt):
    a = advise_discard(dealt, dealer=True)
    b = advise_discard(list(reversed(dealt)), dealer=True)
    assert [o.net_exact for o in a.options] == [o.net_exact for o in b.options]


def test_command_line(capsys):
    assert advise_main(["5H", "5D", "JS", "6C", "4H", "KD", "--dealer", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "uniform over unseen cards" in out
    assert " 1 JS KD    5H 5D 6C 4H     19.926 15.957  12  24 100.0%  3.970" in out
    assert advise_main(["5H", "5D"]) == 2
    assert "wrong_count" in capsys.readouterr().err
