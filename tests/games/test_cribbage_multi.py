"""Three-handed and four-handed (partners) cribbage: hand-made deals worked out from the rules.

Every vector below was counted by hand; the arithmetic is in the comments beside it. Seats:
Ann 0, Bob 1, Cy 2 (and Di 3); each player's left neighbour is the next index, so the player
left of the dealer leads the pegging and counts first in the show.
"""

from __future__ import annotations

import copy

import pytest

from games.cribbage import review_game, score_play, simulate_game, verify_game


def codes(report):
    return [problem.code for problem in report.problems]


def play_events(report, deal=0):
    return [event for event in report.events if event.phase == "play" and event.deal == deal]


# --- Three-handed -------------------------------------------------------------------------


def three_handed_deal(**changes):
    """Cy (2) deals; Ann (0) leads. 5 cards each, one each to the crib, KD from the deck.

    Ann was dealt 10S 4C 9H 2S AC and threw AC; Bob 5H KH QD JC 3H threw 3H; Cy 6D 6C 8C
    10H 7S threw 7S; KD went face down from the deck to the crib. Starter 5C.
    """
    deal = {
        "dealer": 2,
        "dealt": [
            ["10S", "4C", "9H", "2S", "AC"],
            ["5H", "KH", "QD", "JC", "3H"],
            ["6D", "6C", "8C", "10H", "7S"],
        ],
        "hands": [
            ["10S", "4C", "9H", "2S"],
            ["5H", "KH", "QD", "JC"],
            ["6D", "6C", "8C", "10H"],
        ],
        "crib": ["AC", "3H", "7S", "KD"],
        "starter": "5C",
        "play": [
            # first count
            {"by": 0, "card": "10S", "claim": 0},  # 10
            {"by": 1, "card": "5H", "claim": 2},  # 15: fifteen 2
            {"by": 2, "card": "6D", "claim": 0},  # 21: 10 5 6 no run
            {"by": 0, "card": "4C", "claim": 3},  # 25: 5 6 4 (three players' cards) run of 3
            {"by": 1, "card": "go"},  # Bob holds KH QD JC: 25 + 10 > 31
            {"by": 2, "card": "6C", "claim": 2},  # 31: 2 for thirty-one (not 2 + 1); reset
            # second count: play resumes with the player after Cy, Ann
            {"by": 0, "card": "9H", "claim": 0},  # 9
            {"by": 1, "card": "KH", "claim": 0},  # 19
            {"by": 2, "card": "8C", "claim": 0},  # 27: 9 K 8 no run
            # 29; nobody can lay a card (Ann is out, Bob QD JC, Cy 10H): 1 for the go; reset
            {"by": 0, "card": "2S", "claim": 1},
            # third count: resumes with Bob; Ann has no cards and is passed over
            {"by": 1, "card": "QD", "claim": 0},  # 10
            {"by": 2, "card": "10H", "claim": 0},  # 20
            {"by": 1, "card": "JC", "claim": 4},  # 30: Q 10 J run of 3, last card 1
        ],
        "show": [
            # Ann 10S 4C 9H 2S + 5C: 10+5, 4+9+2 = two fifteens 4; no pair, run, flush: 4
            {"by": 0, "claim": 4},
            # Bob 5H KH QD JC + 5C: each 5 with K, Q, J = 6 fifteens 12, pair of 5s 2,
            # J-Q-K run 3, nobs (JC, starter a club) 1: 18
            {"by": 1, "claim": 18},
            # Cy 6D 6C 8C 10H + 5C: 10+5 fifteen 2, pair of 6s 2; 5 6 6 8 10 no run: 4
            {"by": 2, "claim": 4},
            # crib AC 3H 7S KD + 5C: K+5, 7+5+3 = two fifteens 4; no pair or run: 4
            {"by": 2, "crib": True, "claim": 4},
        ],
    }
    deal.update(changes)
    return deal


def three_handed(deals, **changes):
    data = {"target": 121, "muggins": False, "players": ["Ann", "Bob", "Cy"], "deals": deals}
    data.update(changes)
    return data


def test_three_handed_deal_with_gos_thirty_one_and_the_crib_card_from_the_deck():
    report = verify_game(three_handed([three_handed_deal()]))
    assert codes(report) == ["game_unfinished"]
    assert report.valid and report.claims_correct
    assert report.sides == ((0,), (1,), (2,))
    play = play_events(report)
    assert [event.what for event in play] == [
        "10S", "5H", "6D", "4C", "go", "6C", "9H", "KH", "8C", "2S", "QD", "10H", "JC",
    ]  # fmt: skip
    assert [event.count for event in play if event.what != "go"] == [
        10, 15, 21, 25, 31, 9, 19, 27, 29, 10, 20, 30,
    ]  # fmt: skip
    assert [event.true for event in play] == [0, 2, 0, 3, 0, 2, 0, 0, 0, 1, 0, 0, 4]
    # the run of 4C is made of three players' cards: Bob's 5H, Cy's 6D, Ann's 4C
    run = next(item for item in play[3].items if item.kind == "run")
    assert [str(card) for card in run.cards] == ["5H", "6D", "4C"]
    # pegging: Ann 3 + 1 = 4, Bob 2 + 4 = 6, Cy 2
    # show: Ann 4, Bob 18, Cy 4 + crib 4 = 8
    assert report.scores == (4 + 4, 6 + 18, 2 + 8)
    show = [(event.player, event.what) for event in report.events if event.phase == "show"]
    assert show == [(0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]


def test_three_handed_show_listed_out_of_order_is_counted_in_the_rules_order():
    deal = three_handed_deal()
    deal["show"].reverse()  # crib, Cy, Bob, Ann
    report = verify_game(three_handed([deal]))
    assert codes(report) == ["show_order", "game_unfinished"]
    show = [(e.player, e.what, e.true) for e in report.events if e.phase == "show"]
    assert show == [(0, "hand", 4), (1, "hand", 18), (2, "hand", 4), (2, "crib", 4)]
    assert report.scores == (8, 24, 10)


def test_three_handed_crib_card_from_the_deck_is_checked():
    # the crib of only the three discards: 3 cards, where 4 are needed
    short = three_handed_deal(crib=["AC", "3H", "7S"])
    report = verify_game(three_handed([short]))
    assert codes(report)[0] == "wrong_hand_size"
    assert report.problems[0].params == {
        "player": None, "what": "crib", "count": 3, "expected": 4,
    }  # fmt: skip
    # the deck card may be any card nobody holds; one the dealer kept is used twice
    twice = three_handed_deal(crib=["AC", "3H", "7S", "6C"])
    assert codes(verify_game(three_handed([twice])))[0] == "card_twice"
    # Bob's discard 3H missing from the crib (QC there instead of it)
    missing = three_handed_deal(crib=["AC", "QC", "7S", "KD"])
    report = verify_game(three_handed([missing]))
    assert codes(report)[0] == "discard_mismatch"
    assert report.problems[0].params == {"card": "3H", "player": 1}
    # 5 cards dealt each with three players, not 6
    six = three_handed_deal()
    six["dealt"][0] = ["10S", "4C", "9H", "2S", "AC", "AD"]
    report = verify_game(three_handed([six]))
    assert report.problems[0].code == "wrong_hand_size"
    assert report.problems[0].params["expected"] == 5


def test_three_handed_goes_are_checked_against_every_players_cards():
    deal = three_handed_deal()
    # Cy says go at 25 holding 6C: an illegal go
    deal["play"][5] = {"by": 2, "card": "go"}
    report = verify_game(three_handed([deal]))
    assert "illegal_go" in codes(report)
    problem = next(p for p in report.problems if p.code == "illegal_go")
    assert problem.params == {"player": 2, "count": 25}
    # Bob's go may be left out: he is passed over; Ann cannot jump in before Cy
    deal = three_handed_deal()
    del deal["play"][4]
    assert codes(verify_game(three_handed([deal]))) == ["game_unfinished"]
    deal = three_handed_deal()
    deal["play"][4] = {"by": 0, "card": "2S", "claim": 0}
    report = verify_game(three_handed([deal]))
    assert report.problems[0].code == "out_of_turn"
    assert report.problems[0].params == {"player": 0, "card": "2S", "expected": 2}


def pair_royal_deal():
    """Cy (2) deals, Ann leads: a pair royal and a double pair royal by three players, then
    runs completed by the third player on.

    Ann 7H 7C 2D AS, Bob 7D 3C 3S 6H, Cy 7S 4H 5S KC. Crib 8H 10D QS KS (KS from the deck),
    starter 9D (no his heels).
    """
    return {
        "dealer": 2,
        "hands": [["7H", "7C", "2D", "AS"], ["7D", "3C", "3S", "6H"], ["7S", "4H", "5S", "KC"]],
        "crib": ["8H", "10D", "QS", "KS"],
        "starter": "9D",
        "play": [
            {"by": 0, "card": "7H"},  # 7
            {"by": 1, "card": "7D"},  # 14: pair 2
            {"by": 2, "card": "7S"},  # 21: three 7s by three players: pair royal 6
            {"by": 0, "card": "7C"},  # 28: the fourth 7: double pair royal 12
            {"by": 1, "card": "3C"},  # 31: 2 (7 7 3 no run); reset, Cy plays next
            {"by": 2, "card": "4H"},  # 4
            {"by": 0, "card": "2D"},  # 6
            {"by": 1, "card": "3S"},  # 9: 4 2 3, the third player completes a run of 3
            {"by": 2, "card": "5S"},  # 14: 4 2 3 5 run of 4
            {"by": 0, "card": "AS"},  # 15: fifteen 2 + run A-5 of 5 = 7
            {"by": 1, "card": "6H"},  # 21: 4 2 3 5 A 6 run of 6
            {"by": 2, "card": "KC"},  # 31: 2 for 31, the last card adds nothing at 31
        ],
    }


def test_pair_royal_and_runs_across_three_players_in_pegging():
    report = verify_game(three_handed([pair_royal_deal()]))
    assert codes(report) == ["game_unfinished"]
    play = play_events(report)
    assert [event.true for event in play] == [0, 2, 6, 12, 2, 0, 0, 3, 4, 7, 6, 2]
    assert [event.player for event in play] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]
    kinds = [[item.kind for item in event.items] for event in play]
    assert kinds[2] == ["pair royal"] and kinds[3] == ["double pair royal"]
    assert kinds[7] == ["run"] and kinds[9] == ["fifteen", "run"] and kinds[11] == ["thirty-one"]
    # Ann 12 + 7 = 19, Bob 2 + 2 + 3 + 6 = 13, Cy 6 + 4 + 2 = 12: 44 pegged in all
    pegged = [sum(e.true for e in play if e.player == p) for p in range(3)]
    assert pegged == [19, 13, 12]
    # the pile scores the same whoever laid each card
    assert score_play(["7H", "7D", "7S"]).total == 6
    assert score_play(["4H", "2D", "3S"]).total == 3


def test_three_handed_muggins_goes_to_the_claimants_left():
    deal = three_handed_deal()
    deal["show"][1] = {"by": 1, "claim": 12}  # Bob overlooks 6 of his 18
    report = verify_game(three_handed([deal], muggins=True))
    bob = next(e for e in report.events if e.phase == "show" and e.player == 1)
    assert (bob.credited, bob.muggins_side, bob.muggins_points) == (12, 2, 6)
    # Ann 8, Bob 6 + 12, Cy 10 + 6
    assert report.scores == (8, 18, 16)


def test_three_handed_his_heels_go_to_the_dealer_and_muggins_to_the_left():
    # starter JD: 2 for his heels to Cy, the dealer, claimed as 0: with muggins the 2
    # overlooked points go to the claimant's left, Ann (the show is left unclaimed)
    deal = three_handed_deal(starter="JD", heels=0, show=[])
    report = verify_game(three_handed([deal], muggins=True))
    heels = report.events[0]
    assert (heels.phase, heels.player, heels.true, heels.claimed) == ("starter", 2, 2, 0)
    assert (heels.credited, heels.muggins_side, heels.muggins_points) == (0, 0, 2)
    assert heels.scores == (2, 0, 0)
    assert [p.code for p in report.problems] == ["claim_mismatch", "game_unfinished"]


# --- Four-handed: partners ----------------------------------------------------------------

# The same deal, seat by seat from the dealer's left (P1 leads, P2 is the dealer's partner,
# P3 the dealer's right, P4 the dealer), rotated to whoever deals; starter 10S.
PARTNER_HANDS = (
    ["5H", "10H", "JH", "QH"],  # P1
    ["5D", "JD", "QD", "JS"],  # P2
    ["5S", "QS", "KS", "KH"],  # P3
    ["5C", "KC", "10C", "KD"],  # P4, the dealer
)
# (seat from the dealer's left, card, true points), with the running count
PARTNER_PLAY = (
    (1, "5H", 0),  # 5
    (2, "5D", 2),  # 10: pair
    (3, "5S", 8),  # 15: pair royal 6 + fifteen 2
    (4, "5C", 12),  # 20: double pair royal
    (1, "10H", 1),  # 30: every card left is worth 10: go 1; reset, P2 next
    (2, "JD", 0),  # 10
    (3, "QS", 0),  # 20
    (4, "KC", 4),  # 30: J Q K run 3 + go 1; reset, P1 next
    (1, "JH", 0),  # 10
    (2, "QD", 0),  # 20
    (3, "KS", 4),  # 30: run 3 + go 1; reset, P4 next
    (4, "10C", 0),  # 10
    (1, "QH", 0),  # 20
    (2, "JS", 4),  # 30: 10 Q J run 3 + go 1; reset, P3 next
    (3, "KH", 0),  # 10
    (4, "KD", 3),  # 20: pair 2 + last card 1
)
# pegging: P1 1, P2 2 + 4 = 6, P3 8 + 4 = 12, P4 12 + 4 + 3 = 19
# show with starter 10S:
#   P1 5H 10H JH QH: 5 with 10H JH QH 10S = 4 fifteens 8, 10s pair 2, 10-J-Q double run 6,
#      four hearts flush 4: 20
#   P2 5D JD QD JS: 4 fifteens 8, jacks pair 2, 10-J-Q double run 6, nobs (JS) 1: 17
#   P3 5S QS KS KH: 4 fifteens 8, kings pair 2 (no J: Q-K no run): 10
#   P4 5C KC 10C KD: 4 fifteens 8, kings pair 2, 10s pair 2: 12
#   crib AS 2C 3D 4H: 10+A+4, 10+2+3 two fifteens 4, A-2-3-4 run 4: 8
# a deal: the dealer's side P2 + P4 = 6 + 19 + 17 + 12 + 8 = 62; the pone's side
# P1 + P3 = 1 + 12 + 20 + 10 = 43
PARTNER_SHOW = ((1, 20), (2, 17), (3, 10), (4, 12))
PARTNER_CRIB = (["AS", "2C", "3D", "4H"], 8)


def partners_deal(dealer):
    """The partners deal with `dealer` dealing (everyone's cards rotate with the deal)."""
    hands = [None] * 4
    for k, hand in enumerate(PARTNER_HANDS, start=1):
        hands[(dealer + k) % 4] = hand
    return {
        "dealer": dealer,
        "hands": hands,
        "crib": PARTNER_CRIB[0],
        "starter": "10S",
        "play": [
            {"by": (dealer + k) % 4, "card": card, "claim": points}
            for k, card, points in PARTNER_PLAY
        ],
        "show": [{"by": (dealer + k) % 4, "claim": points} for k, points in PARTNER_SHOW]
        + [{"by": dealer, "crib": True, "claim": PARTNER_CRIB[1]}],
    }


def partners(deals, **changes):
    data = {
        "target": 121,
        "muggins": False,
        "players": ["Ann", "Bob", "Cy", "Di"],
        "deals": deals,
    }
    data.update(changes)
    return data


def test_partners_peg_together_and_a_deal_scores_62_to_43():
    report = verify_game(partners([partners_deal(0)]))
    assert codes(report) == ["game_unfinished"]
    assert report.sides == ((0, 2), (1, 3))
    # Ann deals: Ann and Cy (side 0) are the dealer's side
    assert report.scores == (62, 43)
    play = play_events(report)
    assert [event.true for event in play] == [points for _, _, points in PARTNER_PLAY]
    assert [event.side for event in play] == [k % 2 for k, _, _ in PARTNER_PLAY]


def test_partners_reach_121_in_the_pegging_and_the_show_is_not_counted():
    # deal 0, Ann deals: side 0 62, side 1 43; deal 1, Bob deals: side 1 +62 = 105,
    # side 0 +43 = 105. Deal 2, Cy deals (side 0): P1 Di 5H 0 (side 1 105), P2 Ann 5D 2
    # (side 0 107), P3 Bob 5S 8 (side 1 113), P4 Cy 5C 12 (side 0 119), P1 Di 10H 1 (side 1
    # 114), Ann JD 0, Bob QS 0, Cy KC 4: 119 + 4 = 123, past 121: side 0 wins at 121 by the
    # eighth card of the play (2 of its 4 points pegged); the rest of the play and the show
    # (Di's 20 and Bob's 10 would take side 1 to 144) are not scored.
    data = partners([partners_deal(0), partners_deal(1), partners_deal(2)])
    data["result"] = {"winner": 2, "loser_score": 114, "scores": [121, 114]}
    report = verify_game(data)
    assert report.finished and report.valid and report.claims_correct
    assert report.winner == 0 and report.scores == (121, 114)
    assert report.ended_at == {"deal": 2, "phase": "play", "event": 7, "player": 2, "what": "KC"}
    assert codes(report) == ["after_game_end"]
    assert (report.problems[0].deal, report.problems[0].phase, report.problems[0].event) == (
        2, "play", 8,
    )  # fmt: skip
    last = report.events[-1]
    assert (last.true, last.credited, last.scores) == (4, 2, (121, 114))
    assert not [event for event in report.events if event.deal == 2 and event.phase == "show"]
    out = report.to_dict()
    assert out["winner_players"] == ["Ann", "Cy"]
    assert [(loser["side"], loser["score"], loser["skunk_name"]) for loser in out["losers"]] == [
        (1, 114, "none"),
    ]


def test_partners_result_declared_for_the_wrong_side_or_scores_is_a_mismatch():
    data = partners([partners_deal(0), partners_deal(1), partners_deal(2)])
    data["result"] = {"winner": 1, "scores": [121, 113]}
    report = verify_game(data)
    mismatches = [p for p in report.problems if p.code == "result_mismatch"]
    assert [p.params for p in mismatches] == [
        {"claimed": 1, "actual": 0},
        {"claimed": "121, 113", "actual": "121, 114"},
    ]


def test_partners_play_out_of_turn_names_the_player_to_play():
    deal = partners_deal(0)
    # Ann deals, so Bob (P1) leads; Cy (P2) lays 5D before him
    deal["play"][0], deal["play"][1] = deal["play"][1], deal["play"][0]
    report = verify_game(partners([deal]))
    problem = report.problems[0]
    assert problem.code == "out_of_turn"
    assert problem.params == {"player": 2, "card": "5D", "expected": 1}


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_partners_deal_scores_the_same_whoever_deals(dealer):
    report = verify_game(partners([partners_deal(dealer)]))
    side = dealer % 2
    assert report.scores[side] == 62 and report.scores[1 - side] == 43


def test_verifying_a_three_handed_record_leaves_it_unchanged():
    data = three_handed([three_handed_deal()])
    before = copy.deepcopy(data)
    verify_game(data)
    assert data == before


def test_review_of_a_three_handed_deal_and_of_partners():
    review = review_game(three_handed([three_handed_deal()]))
    # each of the three threw one of 5 cards: 5 options each; only Cy (the dealer) owns the crib
    assert [(d.player, d.own_crib, d.options) for d in review.decisions] == [
        (0, False, 5),
        (1, False, 5),
        (2, True, 5),
    ]
    assert [[str(card) for card in d.discarded] for d in review.decisions] == [
        ["AC"],
        ["3H"],
        ["7S"],
    ]
    record = simulate_game(5, players=4, target=61)
    for decision in review_game(record).decisions:
        dealer = record["deals"][decision.deal]["dealer"]
        # the dealer's partner throws to their own side's crib
        assert decision.own_crib == (decision.player % 2 == dealer % 2)
