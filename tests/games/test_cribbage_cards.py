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


def test_every_known_spelling_agrees_with_the_careful_parse():
    """The table of spellings that skips the careful parse answers as that parse would."""
    from games.cribbage.cards import _known_spellings, _parse_slowly

    table = _known_spellings()
    assert len(table) > 52 * 4
    for text, card in table.items():
        assert _parse_slowly(text) is card, text


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_spelling_of_a_card_scores_the_same(card):
    """10H, TH, th, ' Th ', 10♥ and 10♥ with a variation selector: one card, one score."""
    from games.cribbage import score_hand

    label = str(card)
    rank, suit = label[:-1], label[-1]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    ranks = [rank, rank.lower()] + (["T", "t"] if rank == "10" else [])
    spellings = [r + s for r in ranks for s in (suit, suit.lower(), symbol, symbol + "\ufe0f")]
    spellings += [f" {label.lower()} ", f"\t{label}\n"]
    others = [c for c in DECK if c.rank != card.rank][:4]
    expected = score_hand([card, *others[:3]], others[3]).to_dict()
    for text in spellings:
        assert parse_card(text) is card, text
        assert parse_cards([text]) == [card], text
        assert score_hand([text, *map(str, others[:3])], str(others[3])).to_dict() == expected
        assert score_hand(" ".join([text.strip(), *map(str, others[:3])]), others[3]).to_dict() == (
            expected
        )
        # as the starter too
        assert score_hand(others[:4], text).total == score_hand(others[:4], card).total


def test_a_remembered_spelling_is_parsed_as_before(monkeypatch):
    """Odd spellings are remembered after the careful parse, up to a limit, never wrongly."""
    from games.cribbage import cards

    monkeypatch.setattr(cards, "_LOOKUP", dict(cards._LOOKUP))
    assert parse_card("  5h  ") is parse_card("5H")
    assert cards._LOOKUP["  5h  "] is parse_card("5H")
    monkeypatch.setattr(cards, "_LOOKUP_LIMIT", len(cards._LOOKUP))
    assert parse_card("   6d") is parse_card("6D")
    assert "   6d" not in cards._LOOKUP  # full: parsed, not kept
    with pytest.raises(CardError):
        parse_card(" 5x ")
    assert " 5x " not in cards._LOOKUP
