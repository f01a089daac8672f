"""The engines' errors in the user's language (issue #15): every code has a template, every
raise site gives the params its template needs, and the pages and the API show the translated
text with the engine's stable code."""

from __future__ import annotations

import ast
import html
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from django.utils.translation import override, trans_real

from core.engine_messages import WORD_KEYS, placeholders, templates_of
from core.engine_messages import cribbage as cribbage_messages
from core.engine_messages import stoppa as stoppa_messages
from games import cribbage, stoppa
from games.cribbage import CardError, CribbageError, check_claim, score_hand, score_play
from games.stoppa import StoppaError, parse_cards, verify_deal

GAMES = Path(__file__).resolve().parents[2] / "games"


def _codes(catalogue: Mapping[str, object]) -> set[str]:
    """The engine codes a catalogue covers (``code:word`` keys count for ``code``)."""
    return {key.split(":", 1)[0] for key in catalogue}


def test_every_stoppa_code_has_a_template() -> None:
    engine = set(stoppa.ERROR_CODES) | set(stoppa.WARNING_CODES)
    assert engine <= set(stoppa_messages.MESSAGES), engine - set(stoppa_messages.MESSAGES)
    assert _codes(stoppa_messages.MESSAGES) <= engine  # no template for a code that is gone


def test_every_cribbage_code_has_a_template() -> None:
    errors = set(cribbage.ERROR_CODES) | {CribbageError.default_code}
    assert errors <= set(cribbage_messages.ERROR_MESSAGES)
    assert _codes(cribbage_messages.ERROR_MESSAGES) <= errors
    problems = set(cribbage.PROBLEM_CODES)
    assert problems <= set(cribbage_messages.PROBLEM_MESSAGES)
    assert _codes(cribbage_messages.PROBLEM_MESSAGES) <= problems


# --------------------------------------------------------------------------- the raise sites


def _sites(path: Path) -> Iterator[tuple[str, str, ast.expr | None, int]]:
    """(catalogue, code, params node, line) of every error or report item built in ``path``
    with a literal code."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        keywords = {k.arg: k.value for k in node.keywords}
        if name in {"StoppaError", "Issue"}:
            catalogue, code_node, at = "stoppa", node.args[0] if node.args else None, 3
        elif name in {"CardError", "CribbageError"}:
            default = "bad_card" if name == "CardError" else "bad_input"
            code_node = node.args[1] if len(node.args) > 1 else keywords.get("code")
            code_node = code_node or ast.Constant(default)
            catalogue, at = "cribbage", 2
        elif name in {"problem", "Problem"} and node.args:
            catalogue, code_node, at = "problem", node.args[0], 5
        else:
            continue
        if not (isinstance(code_node, ast.Constant) and isinstance(code_node.value, str)):
            continue  # a code passed on from another error (its params come with it)
        params = node.args[at] if len(node.args) > at else keywords.get("params")
        yield catalogue, code_node.value, params, node.lineno


CATALOGUES = {
    "stoppa": stoppa_messages.MESSAGES,
    "cribbage": cribbage_messages.ERROR_MESSAGES,
    "problem": cribbage_messages.PROBLEM_MESSAGES,
}


def _candidates(catalogue: Mapping, code: str, words: dict[str, str]) -> list:
    for name in WORD_KEYS:
        if f"{code}:{words.get(name)}" in catalogue:
            return list(templates_of(catalogue[f"{code}:{words[name]}"]))
    if words.keys() & set(WORD_KEYS):
        # a word known only at run time: any variant must do
        return [t for k, v in catalogue.items() if k.split(":")[0] == code for t in templates_of(v)]
    return list(templates_of(catalogue[code]))


@pytest.mark.parametrize("path", sorted(GAMES.glob("*/*.py")), ids=lambda p: p.stem)
def test_every_raise_site_gives_the_params_of_a_template(path: Path) -> None:
    for name, code, params, line in _sites(path):
        catalogue = CATALOGUES[name]
        if isinstance(params, ast.Dict):
            if any(key is None for key in params.keys):
                continue  # {**exc.params, ...}: the keys come from the first error
            keys = {k.value for k in params.keys if isinstance(k, ast.Constant)}
            words = {
                k.value: v.value
                for k, v in zip(params.keys, params.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
            }
            words.update({k: "?" for k in keys & set(WORD_KEYS) if k not in words})
        elif params is None:
            keys, words = set(), {}
        else:
            continue  # params built elsewhere (a helper's dict)
        fits = [t for t in _candidates(catalogue, code, words) if placeholders(t) <= keys]
        assert fits, f"{path.name}:{line} {code} gives {sorted(keys)}: no template fits"


# --------------------------------------------------------------------------- rendering


def test_describe_fills_the_params_and_falls_back_for_an_unknown_code() -> None:
    with pytest.raises(CardError) as bad:
        score_hand("5H 5C 5S", "5D")
    assert bad.value.code == "wrong_count" and dict(bad.value.params) == {
        "what": "hand",
        "count": 3,
    }
    assert bad.value.message == "a hand has 4 cards after the discard, got 3"  # unchanged
    with override("en"):
        assert cribbage_messages.describe_error(bad.value) == (
            "A hand has 4 cards after the discard, not 3."
        )
        assert cribbage_messages.describe("no_such_code", {}, "the English") == "the English"
        # a template whose params are missing is never shown half-filled
        assert stoppa_messages.describe("card_not_held", {}, "fallback") == "fallback"


@pytest.mark.parametrize(
    ("call", "code", "params", "english"),
    [
        (lambda: score_play("10H 10S 10D 5C"), "pile_over_31", {"count": 35, "card": "5C"},
         "The count passes 31 (35) when 5C is laid."),
        (lambda: score_hand("5H 5C 5S JD", "5H"), "duplicate_card",
         {"card": "5H", "what": "hand and starter"}, "5H appears twice in the hand and starter."),
        (lambda: check_claim("show", "5H", None, 1), "unknown_claim_kind", {"kind": "'show'"},
         "'show' is not something to count: a hand, a crib or the play."),
        (lambda: check_claim("hand", "5H 5C 5S JD", None, 1), "starter_missing",
         {"what": "hand"}, "A hand is counted with the starter: give the starter."),
        (lambda: cribbage.skunk_level(100, 3), "unknown_target",
         {"target": "100", "allowed": "121, 61"}, "100 is not a game length: play to 121, 61."),
    ],
)  # fmt: skip
def test_cribbage_errors_have_code_params_and_text(call, code, params, english) -> None:
    with pytest.raises(CribbageError) as error:
        call()
    assert isinstance(error.value, ValueError)  # callers that catch ValueError still work
    assert (error.value.code, dict(error.value.params)) == (code, params)
    with override("en"):
        assert cribbage_messages.describe_error(error.value) == english


def test_stoppa_errors_and_report_items_have_params() -> None:
    with pytest.raises(StoppaError) as twice:
        parse_cards("7d 7d")
    assert (twice.value.code, dict(twice.value.params)) == ("duplicate_card", {"card": "7d"})
    assert twice.value.message == "card 7d appears twice"
    with override("en"):
        assert stoppa_messages.describe_error(twice.value) == "Card 7d appears twice."
    report = verify_deal("{")
    issue = report.errors[0]
    assert issue.code == "bad_record" and "error" in issue.params
    assert issue.to_dict()["params"] == dict(issue.params)


def test_problem_params_name_the_card() -> None:
    record = {
        "players": ["Ann", "Bob"],
        "deals": [
            {
                "dealer": 0,
                "hands": [["5H", "5C", "5S", "JD"], ["2C", "3C", "4D", "9S"]],
                "crib": ["KH", "QS", "7D", "AC"],
                "starter": "5H",
            }
        ],
    }
    problem = cribbage.verify_game(record).problems[0]
    assert problem.code == "card_twice" and problem.params == {"card": "5H"}
    assert problem.to_dict()["params"] == {"card": "5H"}
    with override("en"):
        assert cribbage_messages.problem_text(problem) == "5H is used twice in this deal."
        assert cribbage_messages.problem_text(problem.to_dict()) == (
            "5H is used twice in this deal."
        )


# --------------------------------------------------------------------------- pages and API

ITALIAN = "%(text)s non è una carta (catalogo di prova)."


@pytest.fixture
def italian() -> Iterator[None]:
    """An Italian translation of the bad-card template, as the translators' catalogue will give
    one; the cached Italian catalogue is dropped afterwards."""
    with override("en"):
        template = str(cribbage_messages.ERROR_MESSAGES["bad_card"])
    trans_real.translation("it")._catalog[template] = ITALIAN
    yield
    trans_real._translations.pop("it", None)


def _expected(language: str) -> str:
    with override(language):
        return cribbage_messages.describe("bad_card", {"text": "5X"})


def test_api_detail_is_in_the_users_language_with_the_stable_code(api, italian) -> None:
    body = {"hand": "5H 5C 5X JD", "starter": "5D"}
    it = api.post("/api/v1/cribbage/hand", body, format="json", HTTP_ACCEPT_LANGUAGE="it")
    error = it.json()["errors"][0]
    assert it.status_code == 400 and (error["code"], error["attr"]) == ("bad_card", "hand")
    assert error["detail"] == _expected("it") == "5X non è una carta (catalogo di prova)."
    en = api.post("/api/v1/cribbage/hand", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    english = en.json()["errors"][0]
    assert english["code"] == "bad_card"
    assert english["detail"] == _expected("en") and english["detail"].startswith("5X is not a card")


def test_hand_checker_page_shows_the_error_in_the_users_language(client, italian) -> None:
    query = {"hand": "5H 5C 5X JD", "starter": "5D"}
    it = client.get("/cribbage/", query, HTTP_ACCEPT_LANGUAGE="it")
    assert it.status_code == 400
    assert _expected("it") in html.unescape(it.content.decode())
    en = client.get("/cribbage/", query, HTTP_ACCEPT_LANGUAGE="en")
    assert "5X is not a card: write the rank" in html.unescape(en.content.decode())


def test_stoppa_api_detail_is_translated_and_the_code_stable(api) -> None:
    body = {"hands": [{"cards": "Kc Jc 3c"}, {"cards": "As 7b 3c"}]}
    for language in ("it", "en"):
        response = api.post(
            "/api/v1/stoppa/piccolo", body, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        error = response.json()["errors"][0]
        assert error["code"] == "duplicate_card"
        with override(language):
            assert error["detail"] == stoppa_messages.describe(
                "duplicate_card", {"card": "3c", "other": "A", "player": "B"}
            )


def test_report_items_of_the_apis_carry_a_translated_detail(api) -> None:
    record = {
        "players": ["Ann", "Bob"],
        "deals": [
            {
                "dealer": 0,
                "hands": [["5H", "5C", "5S", "JD"], ["2C", "3C", "4D", "9S"]],
                "crib": ["KH", "QS", "7D", "AC"],
                "starter": "5H",
            }
        ],
    }
    game = api.post("/api/v1/cribbage/game", record, format="json", HTTP_ACCEPT_LANGUAGE="en")
    problem = game.json()["problems"][0]
    assert (problem["code"], problem["params"]) == ("card_twice", {"card": "5H"})
    assert problem["detail"] == "5H is used twice in this deal."
    deal = api.post(
        "/api/v1/stoppa/deal", {"players": ["A"]}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    error = deal.json()["errors"][0]
    with override("en"):
        assert error["detail"] == stoppa_messages.describe(
            error["code"], error["params"], error["message"]
        )
    assert "%(" not in error["detail"]
