"""The hand-by-hand record entered deal by deal on the player's page (results.forms.DealForm).

The form only reshapes the fields; the cribbage engine (through results.services.reports.
_check_record) is the one validator, and its problems come back beside the deal they concern.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.cribbage import verify_game
from results import services
from results.forms import DealFormSet
from results.models import Submission
from tests.factories import event_with_field, stoppa_event_with_field
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

# The README's example deal (games/cribbage/README.md): the dealer holds 5H 5C 5S JD.
DEALER_HAND = ["5H", "5C", "5S", "JD"]
PONE_HAND = ["2C", "3C", "4D", "9S"]
CRIB = ["KH", "QS", "7D", "AC"]
# The pegging in order (the pone leads): 9 14 16 21 25 30 (go: 1) | 3 13 (last card: 1).
PLAY = ["9S", "5H", "2C", "5C", "4D", "5S", "3C", "JD"]
PEGS = [0, 0, 0, 0, 0, 1, 0, 1]


def deal_fields(
    i: int,
    *,
    dealer: str,
    mine: list[str],
    theirs: list[str],
    crib: list[str] = CRIB,
    starter: str = "5D",
    play: list[str] = PLAY,
    pegs: list[int | None] | None = None,
    show: tuple = ("", "", ""),
) -> dict[str, str]:
    """The POST fields of deal ``i`` as the page names them."""
    fields = {f"deal-{i}-dealer": dealer, f"deal-{i}-starter": starter}
    for group, cards in (("mine", mine), ("theirs", theirs), ("crib", crib)):
        for j in range(4):
            fields[f"deal-{i}-{group}_{j}"] = cards[j] if j < len(cards) else ""
    for j in range(8):
        fields[f"deal-{i}-play_{j}"] = play[j] if j < len(play) else ""
        peg = (pegs or [])[j] if j < len(pegs or []) else None
        fields[f"deal-{i}-peg_{j}"] = "" if peg is None else str(peg)
    for name, value in zip(("hand_points", "their_points", "crib_points"), show, strict=True):
        fields[f"deal-{i}-{name}"] = str(value)
    return fields


def two_deals() -> dict[str, str]:
    """A real two-deal record: I deal first (and hold the 29-ish hand), then my opponent."""
    return {
        "deal-TOTAL_FORMS": "2",
        "deal-INITIAL_FORMS": "0",
        **deal_fields(
            0, dealer="me", mine=DEALER_HAND, theirs=PONE_HAND, pegs=PEGS, show=(29, 6, 4)
        ),
        # Deal 2: the opponent deals and holds the fives; I lead the 9S.
        **deal_fields(1, dealer="opponent", mine=PONE_HAND, theirs=DEALER_HAND, show=(6, 29, "")),
    }


@pytest.fixture
def night():
    cache.clear()  # the per-key report throttle lives in the cache
    event = event_with_field(4)
    table = tournament_services.draw_next_game(event).tables.order_by("number").first()
    return event, table, services.key_for(table.seat_a).key


def report(table, **extra) -> dict[str, str]:
    return {"table": str(table.pk), "winner": "me", "loser_score": "95", "action": "report"} | extra


def expected_deal(dealer: int, hands: list[list[str]], plays: list[dict], show: list[dict]) -> dict:
    return {
        "dealer": dealer,
        # The crib's first two cards are the reporter's discards, the last two the opponent's.
        "dealt": [hands[0] + CRIB[:2], hands[1] + CRIB[2:]],
        "hands": hands,
        "crib": CRIB,
        "starter": "5D",
        "play": plays,
        "show": show,
    }


def test_two_deals_become_the_record_the_engine_reads(client, night):
    event, table, key = night
    me, opponent = table.seat_a.player.name, table.seat_b.player.name
    response = client.post(reverse("player-page", args=[key]), report(table, **two_deals()))
    assert response.status_code == 302
    submission = Submission.objects.get(table=table)
    # Who laid a card is who held it; a blank point is left out (the true points are pegged).
    first_plays = [
        {"by": 0 if card in DEALER_HAND else 1, "card": card, "claim": peg}
        for card, peg in zip(PLAY, PEGS, strict=True)
    ]
    second_plays = [{"by": 0 if card in PONE_HAND else 1, "card": card} for card in PLAY]
    assert submission.record == {
        "target": event.target,
        "muggins": event.muggins,
        "players": [me, opponent],
        "deals": [
            # The show in the rules' order: the pone's hand, the dealer's, then the crib.
            expected_deal(
                0,
                [DEALER_HAND, PONE_HAND],
                first_plays,
                [
                    {"by": 1, "claim": 6},
                    {"by": 0, "claim": 29},
                    {"by": 0, "crib": True, "claim": 4},
                ],
            ),
            expected_deal(
                1,
                [PONE_HAND, DEALER_HAND],
                second_plays,
                [{"by": 0, "claim": 6}, {"by": 1, "claim": 29}],
            ),
        ],
    }
    checked = verify_game(submission.record)
    assert checked.valid and checked.claims_correct
    # 2 + 6 + 29 + 4 for me in deal 1 (pegging, hands, crib), and so on: real replayed scores.
    assert submission.report["valid"] is True
    assert submission.report["scores"] == list(checked.scores)
    assert [p["code"] for p in submission.report["problems"]] == ["game_unfinished"]


def test_a_bad_card_shows_beside_its_deal_and_keeps_what_was_typed(client, night):
    _event, table, key = night
    data = report(table, **two_deals())
    data["deal-1-theirs_2"] = "5X"  # not a card (a crafted POST: the select has no such option)
    response = client.post(reverse("player-page", args=[key]), data)
    body = response.content.decode()
    assert response.status_code == 200 and not Submission.objects.exists()
    deal_2 = body[body.index('id="deal-2"') :]
    assert "5X is not a card." in deal_2
    assert "5X is not a card." not in body[body.index('id="deal-1"') : body.index('id="deal-2"')]
    # The cards typed are all still there.
    assert '<option value="JD" selected>' in deal_2 and 'value="29"' in body
    deal_1 = body[body.index('id="deal-1"') : body.index('id="deal-2"')]
    assert deal_1.count(" selected>") == 4 + 4 + 4 + 1 + 8


def test_a_hand_of_three_and_a_card_twice_are_errors_of_that_deal(client, night):
    _event, table, key = night
    data = report(table, **two_deals())
    data["deal-0-mine_3"] = ""  # a hand of 3 cards
    data["deal-1-crib_0"] = "5D"  # the starter again, in the crib
    response = client.post(reverse("player-page", args=[key]), data)
    body = response.content.decode()
    assert response.status_code == 200 and not Submission.objects.exists()
    deal_1 = body[body.index('id="deal-1"') : body.index('id="deal-2"')]
    deal_2 = body[body.index('id="deal-2"') :]
    assert "3 cards where 4 are needed." in deal_1 and "3 cards where 4 are needed." not in deal_2
    assert "5♦ is used twice in this deal." in deal_2
    assert "The record has mistakes: see the deals below." in body
    assert 'value="95"' in body  # the rest of the report is kept too


def test_pegging_out_of_order_is_shown_at_that_card(client, night):
    _event, table, key = night
    data = report(table, **two_deals())
    data["deal-0-play_0"], data["deal-0-play_1"] = "5H", "9S"  # the dealer led: out of turn
    response = client.post(reverse("player-page", args=[key]), data)
    body = response.content.decode()
    assert response.status_code == 200
    assert "1: 5♥ is laid out of turn." in body


def test_no_dealer_asks_who_dealt(client, night):
    _event, table, key = night
    data = report(table, **two_deals())
    data["deal-0-dealer"] = ""
    response = client.post(reverse("player-page", args=[key]), data)
    assert response.status_code == 200 and "Say who dealt." in response.content.decode()


def test_blank_deals_are_no_record_and_the_json_box_still_works(client, night):
    event, table, key = night
    # A deal with only its dealer (the page alternates it for each deal added) is blank.
    blank = {"deal-TOTAL_FORMS": "1", "deal-INITIAL_FORMS": "0", "deal-0-dealer": "me"}
    response = client.post(reverse("player-page", args=[key]), report(table, **blank))
    assert response.status_code == 302
    assert Submission.objects.get().record is None
    cache.clear()
    pasted = (
        '{"claims": [{"kind": "hand", "cards": "5H 5C 5S JD", "starter": "5D", "claimed": 29}]}'
    )
    response = client.post(
        reverse("player-page", args=[key]), report(table, loser_score="96", record=pasted, **blank)
    )
    assert response.status_code == 302
    assert Submission.objects.get(status="pending").report["claims_correct"] is True


def test_deals_and_a_pasted_record_together_are_refused(client, night):
    _event, table, key = night
    data = report(table, record='{"claims": []}', **two_deals())
    response = client.post(reverse("player-page", args=[key]), data)
    assert response.status_code == 200
    assert "Enter the record deal by deal or paste it, not both." in response.content.decode()


def test_add_and_remove_a_deal_without_javascript(client, night):
    _event, table, key = night
    data = report(table, **two_deals()) | {"action": "add_deal"}
    response = client.post(reverse("player-page", args=[key]), data)
    body = response.content.decode()
    assert response.status_code == 200 and not Submission.objects.exists()
    assert 'id="deal-3"' in body and 'name="deal-TOTAL_FORMS" value="3"' in body
    # The deal alternates: deal 2 was the opponent's, so I deal the third.
    assert (
        'name="deal-2-dealer" value="me" class="btn-check" id="id_deal-2-dealer_0" checked' in body
    )
    assert '<option value="5D" selected>' in body and 'value="95"' in body
    data |= {"action": "remove_deal", "deal-TOTAL_FORMS": "3"}
    response = client.post(reverse("player-page", args=[key]), data)
    body = response.content.decode()
    assert response.status_code == 200 and 'id="deal-2"' in body and 'id="deal-3"' not in body


@pytest.mark.parametrize(
    "garbage",
    [
        {"deal-TOTAL_FORMS": "abc", "deal-INITIAL_FORMS": "x"},
        {"deal-TOTAL_FORMS": "99999", "deal-INITIAL_FORMS": "0"},
        {"deal-TOTAL_FORMS": "-3", "deal-INITIAL_FORMS": "0", "action": "add_deal"},
        {"deal-TOTAL_FORMS": "1", "deal-INITIAL_FORMS": "0", "deal-0-dealer": "nobody"},
        {"deal-TOTAL_FORMS": "1", "deal-INITIAL_FORMS": "0", "deal-0-starter": "x" * 5000},
        {"deal-TOTAL_FORMS": "1", "deal-INITIAL_FORMS": "0", "deal-0-peg_0": "-1"},
        {
            "deal-TOTAL_FORMS": "1",
            "deal-INITIAL_FORMS": "0",
            "deal-0-play_3": "🂡",
            "deal-0-dealer": "me",
        },
        {"deal-TOTAL_FORMS": "2", "deal-INITIAL_FORMS": "0", "deal-1-hand_points": "1e9"},
    ],
)
def test_garbage_posts_are_form_errors_not_500(client, night, garbage):
    _event, table, key = night
    response = client.post(reverse("player-page", args=[key]), report(table, **garbage))
    assert response.status_code in {200, 400}
    assert not Submission.objects.exists()


def test_a_stoppa_player_gets_no_deal_editor(client):
    cache.clear()
    event = stoppa_event_with_field(6)
    tournament_services.draw_next_game(event)
    page = client.get(reverse("player-page", args=[services.key_for(event.entries.first()).key]))
    assert page.status_code == 200 and "data-deals" not in page.content.decode()


def test_every_card_and_point_of_a_deal_has_a_label(client, night):
    _event, table, key = night
    body = client.get(reverse("player-page", args=[key])).content.decode()
    form = DealFormSet(prefix="deal").forms[0]
    for field in form:
        if field.name != "dealer":
            assert f'for="{field.id_for_label}"' in body, field.name


def test_the_six_cards_dealt_are_captured_so_the_discards_are_reviewed(
    client, night, django_capture_on_commit_callbacks
):
    """A phone's record names who threw which crib card: each player's six cards dealt, which
    the discard review needs (without them it reviewed nothing)."""
    from results.models import DiscardReview

    _event, table, key = night
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("player-page", args=[key]), report(table, **two_deals()))
    first = Submission.objects.get(table=table).record["deals"][0]
    assert first["dealt"] == [[*DEALER_HAND, "KH", "QS"], [*PONE_HAND, "7D", "AC"]]
    review = DiscardReview.objects.get().review
    assert review["unknown"] == 0 and len(review["decisions"]) == 4  # two deals, two players
    page = client.get(reverse("player-page", args=[key])).content.decode()
    assert "Your discards" in page


def test_the_form_says_the_engines_problems_in_the_engines_words_but_where_it_names_players():
    """One catalogue (core.engine_messages.cribbage): the form rewords only the problems
    whose engine message names players by number."""
    from core.engine_messages.cribbage import PROBLEM_MESSAGES
    from results.forms import IN_THE_FORMS_WORDS, problem_message

    assert set(IN_THE_FORMS_WORDS) <= set(PROBLEM_MESSAGES)
    past_31 = {
        "code": "past_31",
        "phase": "play",
        "params": {"card": "5H", "count": 30, "new_count": 35},
    }
    assert problem_message(past_31, None) == "5♥ takes the count from 30 to 35, past 31."
    out_of_turn = {"code": "out_of_turn", "phase": "play", "params": {"card": "9S", "player": 2}}
    assert problem_message(out_of_turn, None) == "9♠ is laid out of turn."
    assert (
        problem_message({"code": "no_such_code"}, None)
        == "This part of the deal is not filled in right."
    )
