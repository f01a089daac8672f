"""Players' names as a TD types them at the door: folded for comparison, matched loosely.

Pure Python (no Django): the roster search and the list import compare names here, so
"ann whitfeld" finds Ann Whitfield and "Jurgen Weiss" finds Jürgen Weiß.
"""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher

# A typed word this similar to a word of a name still counts (one letter missed or swapped in
# a word of eight: "whitfeld" for "whitfield" is 0.94).
SIMILAR_WORD = 0.8


def clean(name: str) -> str:
    """The name as stored: inner runs of spaces made one, ends trimmed."""
    return " ".join(name.split())


# Letters Unicode does not decompose into a base letter and a mark, read as a TD would type
# them on an English keyboard: "Lukasz" finds Łukasz, "Oyvind" finds Øyvind (\u0131: the
# dotless i).
_BARE_LETTERS = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "æ": "ae", "œ": "oe", "þ": "th", "\u0131": "i",
     "ħ": "h", "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n"}
)  # fmt: skip

# Longest folded name stored (Player.name_folded): "ß" folds to "ss", "Æ" to "ae".
FOLDED_MAX = 240


def fold(name: str) -> str:
    """The name for comparison: accents stripped (NFKD without combining marks), casefolded,
    the few letters without a decomposition made their base letter, spaces made single.
    ``fold("Jürgen  Weiß") == "jurgen weiss"``, ``fold("Łucja") == "lucja"``."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.translate(_BARE_LETTERS).split())[:FOLDED_MAX]


# Letters a language sorts as letters of their own, right after their base letter (CLDR's
# tailorings for the languages Pegboard speaks); every other accent sorts with its base
# letter, as German (DIN 5007-1), Italian and English dictionaries do.
_OWN_LETTERS = {"ro": ("ă", "â", "î", "ș", "ț")}
_SAME_LETTER = str.maketrans({"ş": "ș", "ţ": "ț"})  # the cedilla forms of old keyboards
# After every letter: "Șerban" after "Szabo" and before "Tudor" in Romanian.
_AFTER = "\U0010fff0"


def sort_key(name: str, language: str | None = None) -> tuple[str, str]:
    """The sort key of a name in ``language``'s alphabetical order: "Łucja" among the L,
    "Ștefan" among the S (in Romanian after every other S), never after Z as raw code
    points put them; the name itself breaks ties."""
    own = _OWN_LETTERS.get((language or "").split("-")[0].lower(), ())
    folded = name.casefold()
    if own:
        # A letter of its own sorts as its base letter followed by its rank among the letters
        # of that base (ă before â), above every letter: "ăa" after "az".
        marks = {}
        for index, letter in enumerate(own):
            base = fold(letter)
            rank = sum(1 for other in own[:index] if fold(other) == base)
            marks[letter] = base + chr(ord(_AFTER) + rank)
        folded = unicodedata.normalize("NFC", folded).translate(_SAME_LETTER)
        folded = "".join(marks.get(ch, ch) for ch in folded)
    return fold(folded), name


def words(query: str) -> list[str]:
    """The folded words of a typed name, commas aside: ``words("Lindqvist, Zoë")`` is
    ``["lindqvist", "zoe"]``, found in Zoë Lindqvist's folded name in any order."""
    return fold(query.replace(",", " ")).split()


def surname_first(name: str) -> str | None:
    """``"Lindqvist, Zoë"`` read as written surname first: ``"Zoë Lindqvist"``; None for a
    name without exactly one comma between two parts."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) != 2 or not all(parts):
        return None
    return clean(f"{parts[1]} {parts[0]}")


def _word_score(typed: str, word: str) -> float:
    """How well one typed word fits one word of a name: 1 for a start, then similarity."""
    if word.startswith(typed):
        return 1.0
    if typed in word:
        return 0.9
    if len(typed) < 4:  # short words must match as typed: "al" is not "ali" nor "sal"
        return 0.0
    ratio = SequenceMatcher(None, typed, word).ratio()
    return ratio if ratio >= SIMILAR_WORD else 0.0


def match_score(query: str, name: str) -> float:
    """How well ``query`` fits ``name`` (0: not a candidate).

    Every typed word must fit some word of the name, by its start, inside it, or closely
    enough (a typo); the score is the mean fit, with a bonus when the whole name is typed.
    """
    # A comma is not part of a word: "Lindqvist, Zoë" is the words of Zoë Lindqvist.
    typed, words = fold(query.replace(",", " ")).split(), fold(name).split()
    if not typed or not words:
        return 0.0
    scores = []
    for t in typed:
        best = max(_word_score(t, w) for w in words)
        if best == 0.0:
            return 0.0
        scores.append(best)
    exact = 0.5 if fold(query) == fold(name) else 0.0
    return sum(scores) / len(scores) + exact


def best_matches(query: str, names: list[tuple[int, str]], limit: int = 8) -> list[int]:
    """The ids of the names that fit ``query`` best, best first (ties by name)."""
    scored = [(match_score(query, name), fold(name), pk) for pk, name in names]
    hits = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))
    return [pk for _score, _name, pk in hits[:limit]]
