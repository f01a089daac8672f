"""Cards, notation and points (spec section 1)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import FULL_DECK, RANK_POINTS, Card, StoppaError, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7d", "7d"),
        ("Kc", "Kc"),
        ("Ns", "Ns"),
        ("jb", "Jb"),
        ("Fd", "Jd"),
        ("Cc", "Nc"),
        ("Rs", "Ks"),
        ("1b", "Ab"),
        ("ad", "Ad"),
        (" 7D ", "7d"),
        ("sette di denari", "7d"),
        ("Re di coppe", "Kc"),
        ("cavallo di spade", "Ns"),
        ("asso di bastoni", "Ab"),
        ("Fante di Coppe", "Jc"),
        ("ace of coins", "Ad"),
    ],
)
def test_parse_card_notation_aliases_and_italian_names(text: str, canonical: str) -> None:
    assert parse_card(text).text == canonical


@pytest.mark.parametrize("text", ["8d", "9c", "10s", "Xd", "7x", "", "7", "d7", "Qd", 7, None])
def test_bad_cards(text: object) -> None:
    with pytest.raises(StoppaError) as e:
        parse_card(text)  # type: ignore[arg-type]
    assert e.value.code == "bad_card"
    assert isinstance(e.value, ValueError)
    assert str(text) in e.value.message


def test_points_table() -> None:
    expected = {
        "7": 21,
        "6": 18,
        "A": 16,
        "5": 15,
        "4": 14,
        "3": 13,
        "2": 12,
        "J": 10,
        "N": 10,
        "K": 10,
    }
    assert expected == RANK_POINTS
    assert parse_card("7d").points == 21
    assert parse_card("Kc").is_figure and not parse_card("7c").is_figure


def test_full_deck_is_forty_distinct_cards() -> None:
    assert len(FULL_DECK) == len(set(FULL_DECK)) == 40


def test_parse_cards_forms_and_duplicates() -> None:
    assert [c.text for c in parse_cards("Kc Jc 3c")] == ["Kc", "Jc", "3c"]
    assert [c.text for c in parse_cards("Kc, Jc,3c")] == ["Kc", "Jc", "3c"]
    assert [c.text for c in parse_cards(["Kc", "Fc"])] == ["Kc", "Jc"]
    assert [c.text for c in parse_cards("re di coppe fante di bastoni")] == ["Kc", "Jb"]
    with pytest.raises(StoppaError) as e:
        parse_cards("Kc Rc")
    assert e.value.code == "duplicate_card" and "Kc" in e.value.message


def test_card_to_dict() -> None:
    assert Card("7", "d").to_dict() == {
        "card": "7d",
        "rank": "7",
        "suit": "d",
        "points": 21,
        "name": "sette di denari",
    }


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FULL_DECK))
def test_round_trip_text_and_italian_name(card: Card) -> None:
    assert parse_card(card.text) == card
    assert parse_card(card.text.lower()) == card
    assert parse_card(card.name_it) == card
