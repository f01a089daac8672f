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


def fold(name: str) -> str:
    """The name for comparison: accents stripped (NFKD without combining marks), casefolded,
    spaces made single. ``fold("Jürgen  Weiß") == "jurgen weiss"``."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


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
    typed, words = fold(query).split(), fold(name).split()
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
