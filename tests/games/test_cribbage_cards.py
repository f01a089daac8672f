"""Card notation: every spelling in the spec, canonical output, and errors naming the token."""

import pytest

from games.cribbage import DECK, Card, CardError, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5H", "5H"),
        ("10S", "10S"),
        ("TS", "10S"),
        ("ts", "10S"),
        ("jd", "JD"),
        ("qc", "QC"),
        ("AS", "AS"),
        ("KD", "KD"),
        ("5♥", "5H"),
        ("10♠", "10S"),
        ("Q♦", "QD"),
        ("a♣", "AC"),
        (" 7c ", "7C"),
        ("5♥\ufe0f", "5H"),
    ],
)
def test_every_notation_parses_to_its_canonical_form(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("bad", ["", "5", "H5", "11S", "1H", "5X", "10", "JJ", "5HH", "0S", "♥5"])
def test_bad_tokens_raise_card_error_naming_them(bad):
    with pytest.raises(CardError) as error:
        parse_card(bad)
    assert repr(bad) in str(error.value)
    assert isinstance(error.value, ValueError)


def test_non_string_is_a_card_error():
    with pytest.raises(CardError):
        parse_card(5)  # type: ignore[arg-type]


def test_deck_has_52_distinct_cards_with_values_and_indices():
    assert len(DECK) == 52
    assert len({str(card) for card in DECK}) == 52
    assert [card.index for card in DECK] == list(range(52))
    assert {card.value for card in DECK if card.rank >= 10} == {10}
    assert parse_card("AS").value == 1
    for card in DECK:
        assert parse_card(str(card)) is card


def test_card_equality_and_construction():
    assert Card(11, "D") == parse_card("jd")
    with pytest.raises(CardError):
        Card(14, "S")
    with pytest.raises(CardError):
        Card(5, "X")


def test_parse_cards_accepts_strings_lists_and_cards():
    assert [str(c) for c in parse_cards("5H, 10s TS jd")] == ["5H", "10S", "10S", "JD"]
    assert [str(c) for c in parse_cards(["5h", parse_card("JD"), "5♥"])] == ["5H", "JD", "5H"]
    assert parse_cards(("5H",)) == [parse_card("5H")]
    assert parse_cards("") == []
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards(["5H", "ZZ"])
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards("5H ZZ")
    with pytest.raises(CardError):
        parse_cards([["5H"]])  # type: ignore[list-item]
