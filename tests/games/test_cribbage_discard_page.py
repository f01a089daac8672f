"""The discard advisor on the web (/cribbage/discard), in the API and in ``manage.py cribbage``."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from core.engine_messages.cribbage import describe_error
from games.cribbage import ADVICE_ERROR_CODES, DECK, AdviceError, advise_discard

ALL_DEALT = ["5H", "5D", "JS", "6C", "4H", "KD"]
DEAL = {f"card_{i}": card for i, card in enumerate(["5H", "5D", "JS", "6C", "4H", "KD"], start=1)}


def test_page_has_six_card_pickers_and_says_the_model(client):
    page = client.get("/cribbage/discard")
    body = page.content.decode()
    assert page.status_code == 200
    assert body.count('class="form-select card-select"') == 6
    assert "each unseen card being equally likely" in body


def test_page_ranks_the_discards_best_first(client):
    page = client.get("/cribbage/discard", {**DEAL, "players": "2", "dealer": "on"})
    body = page.content.decode()
    assert page.status_code == 200
    assert body.count('class="list-group-item') == 15
    first = body.index("list-group-item-success")
    # the best: throw J♠ K♦, keep 5♥ 5♦ 6♣ 4♥: hand 15.96 (12 to 24, always 12+), crib 3.97
    assert body.index("J♠", first) < body.index("K♦", first) < body.index("keep", first)
    assert "hand 15.96 (from 12 to 24; 12 or more: 100%) · crib 3.97" in body
    assert "19.93" in body
    assert "The crib is yours" in body


def test_page_fragment_for_htmx_and_pone(client):
    fragment = client.get("/cribbage/discard", {**DEAL, "players": "2"}, HTTP_HX_REQUEST="true")
    body = fragment.content.decode()
    assert "<html" not in body
    assert "an opponent" in body and "11.99" in body  # 15.96 - 3.97


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"card_1": "5H", "card_2": "5D", "players": "2"},
            "are dealt 6 cards each, not 2.",
        ),
        (
            {**DEAL, "card_6": "5H", "players": "2"},
            "5H is given twice among the",
        ),
        ({**DEAL, "card_6": "ZZ", "players": "2"}, "ZZ is not a card"),
        ({**DEAL, "players": "3"}, "3 players are dealt 5 cards each, not 6."),
    ],
)
def test_page_errors_are_messages_not_500(client, params, message):
    page = client.get("/cribbage/discard", params)
    assert page.status_code == 400
    assert message in page.content.decode()


def test_page_three_players_five_cards(client):
    deal = {k: v for k, v in DEAL.items() if k != "card_6"}
    page = client.get("/cribbage/discard", {**deal, "players": "3"})
    assert page.status_code == 200
    assert page.content.decode().count('class="list-group-item') == 5


def test_api_advice(api):
    response = api.post(
        "/api/v1/cribbage/discard",
        {"dealt": "5H 5D JS 6C 4H KD", "dealer": True},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["model"] == "uniform over unseen cards" and body["unseen"] == 46
    best = body["options"][0]
    assert best["discard"] == ["JS", "KD"] and best["net"] == 19.9263
    assert (best["hand"]["min"], best["hand"]["max"], best["hand"]["chance_12_plus"]) == (12, 24, 1)
    assert best["crib"]["cases"] == 1035 * 44
    assert len(body["options"]) == 15


@pytest.mark.parametrize(
    ("payload", "field", "code"),
    [
        ({"dealt": "5H 5D JS", "dealer": True}, "dealt", "wrong_count"),
        ({"dealt": "5H 5D JS 6C 4H QQ", "dealer": True}, "dealt", "bad_card"),
        ({"dealt": "5H 5D JS 6C 4H KD", "dealer": True, "seen": ["KD"]}, "dealt", "duplicate_card"),
        ({"dealt": "5H 5D JS 6C 4H KD", "dealer": True, "players": 5}, "players", "invalid_choice"),
    ],
)
def test_api_errors_have_codes(api, payload, field, code):
    response = api.post("/api/v1/cribbage/discard", payload, format="json")
    assert response.status_code == 400
    body = response.json()
    text = str(body)
    assert field in text and code in text


def test_command_discard_and_review(capsys):
    call_command("cribbage", "discard", "5H", "5D", "JS", "6C", "4H", "KD", "--dealer")
    out = capsys.readouterr().out
    assert " 1 JS KD    5H 5D 6C 4H     19.926" in out
    call_command("cribbage", "review", "games/cribbage/example_game.json")
    out = capsys.readouterr().out
    assert "Ann: 33.68 over 7 discards" in out
    assert "deal 4, Ann: threw 5S 5H, best 3C 9C (-11.07)" in out
    with pytest.raises(CommandError, match="wrong_count"):
        call_command("cribbage", "discard", "5H", "5D")


@pytest.mark.parametrize(
    ("dealt", "kwargs"),
    [
        ("5H 5D JS", {}),
        ("5H 5D JS 6C 4H QQ", {}),
        ("5H 5D JS 6C 4H KD", {"seen": "QQ"}),
        ("5H 5D JS 6C 4H KD", {"seen": "KD"}),
        ("5H 5D JS 6C 4H KD", {"players": 5}),
        ("5H 5D JS 6C 4H KD", {"seen": [c for c in DECK if str(c) not in ALL_DEALT][2:]}),
    ],
)
def test_every_advisor_error_has_its_own_translated_template(dealt, kwargs):
    with pytest.raises(AdviceError) as info:
        advise_discard(dealt, dealer=True, **kwargs)
    exc = info.value
    assert exc.code in ADVICE_ERROR_CODES
    text = describe_error(exc)
    assert text != exc.message and "%(" not in text
