"""The Stoppa deal checker page (no login) and ``manage.py stoppa``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

README = Path(__file__).resolve().parents[2] / "games" / "stoppa" / "README.md"

STOP_GET = {
    "mode": "stop",
    "name_1": "P2",
    "cards_1": "Ad Ac As Js Ns 3d",
    "name_2": "P3",
    "cards_2": "Ab 2d 3c 5s 5b Nb",
    "name_3": "P4",
    "cards_3": "4d 2c Jc 3b 2s 3s",
    "name_4": "P5",
    "cards_4": "4s 7s 2b Nc 4b 7b",
    "name_5": "P6",
    "cards_5": "5d 6d 6c 6s 6b Jb",
    "name_6": "P1",
    "cards_6": "7d Jd Nd 4c 5c 7c",
    "log": "P2: Ad Ac As\nP3: Ab\nP3: 2d\nP3: 3c\nP4: 4d\nP6: 5d\nP6: 6d 6c 6s 6b\n"
    "P1: 7d\nP1: Jd\nP1: Nd\nP1: 4c\nP1: 5c\nP1: 7c\n",
    "stop_unit": "6",
    "cards_per_payment": "2",
}


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def readme_record() -> dict:
    block = re.search(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    return json.loads(block)


def test_page_and_navbar_link(client):
    page = client.get("/stoppa/")
    body = text(page)
    assert page.status_code == 200 and 'name="cards_1"' in body and 'name="cards_6"' in body
    assert 'href="/stoppa/"' in body and "Stoppa checker" in body
    assert 'href="/stoppa/"' in text(client.get("/cribbage/"))
    stop_tab = text(client.get("/stoppa/", {"mode": "stop"}))
    assert 'name="log"' in stop_tab and 'name="cards_per_payment"' in stop_tab


@pytest.mark.parametrize(
    ("a", "b", "winner", "reason"),
    [
        ("Kc Jc 3c", "As 7b 5b", "A", "fewer cards of one suit"),
        ("7d 5d 6c", "Jc 7s 6s", "B", "lower points"),
        ("Kd Ac 6c", "7b 3b Jc", "A", "later in priority"),
    ],
)
def test_piccolo_says_who_wins_and_why(client, a, b, winner, reason):
    response = client.get("/stoppa/", {"mode": "piccolo", "cards_1": a, "cards_2": b})
    body = text(response)
    assert response.status_code == 200
    assert f"{winner} wins" in body and f"Loses: {reason}" in body


def test_grosso_example_with_names_and_italian_cards(client):
    response = client.get(
        "/stoppa/",
        {
            "mode": "grosso",
            "table_size": "5",
            "name_1": "Ann",
            "cards_1": "6d 7s Ab 5d 4d 7c Ac Kc",
            "name_2": "Bob",
            "cards_2": "sette di denari, cinque di bastoni, fante di bastoni, tre di denari, "
            "sei di coppe, due di coppe, asso di denari, quattro di coppe",
        },
    )
    body = text(response)
    assert response.status_code == 200
    assert "Bob wins" in body and "7d Ad 3d" in body and "50 points" in body
    assert "47 points" in body and "Loses: lower points" in body


def test_fragment_for_htmx_and_errors_on_the_field(client):
    fragment = client.get(
        "/stoppa/",
        {"mode": "piccolo", "cards_1": "Kc Jc 3c", "cards_2": "As 7b 5b"},
        HTTP_HX_REQUEST="true",
    )
    body = text(fragment)
    assert fragment.status_code == 200 and "<html" not in body and "A wins" in body
    bad = client.get("/stoppa/", {"mode": "piccolo", "cards_1": "Kc Jc 3c", "cards_2": "As 8b"})
    assert bad.status_code == 400
    assert "Cards of player 2" in text(bad) and "8b" in text(bad)
    six = client.get("/stoppa/", {"mode": "piccolo", "table_size": "6", "cards_1": "Kc Jc 3c"})
    assert six.status_code == 400 and "no Kings at 6 players" in text(six)
    empty = client.get("/stoppa/", {"mode": "piccolo", "cards_1": ""})
    assert empty.status_code == 400 and "at least one player" in text(empty)


def test_stop_tab_replays_the_spec_example(client):
    response = client.get("/stoppa/", STOP_GET)
    body = text(response)
    assert response.status_code == 200
    assert "P1 closes" in body and "+42" in body and "-18" in body
    assert "all of the rank at once" in body
    wrong = dict(STOP_GET, log=STOP_GET["log"].replace("P3: 3c", "P3: 5s"))
    bad = client.get("/stoppa/", wrong, HTTP_HX_REQUEST="true")
    assert "Play 4:" in text(bad) and "needs a 3" in text(bad)
    played_out = client.get("/stoppa/", dict(STOP_GET, log=""))
    assert played_out.status_code == 200 and "Played out" in text(played_out)


def test_command_piccolo_and_deck(capsys):
    call_command("stoppa", "piccolo", "Kc Jc 3c", "As 7b 5b", "--names", "A", "B")
    out = capsys.readouterr().out
    assert "winner: A (decided by count)" in out and "fewer cards of one suit" in out
    call_command("stoppa", "deck", "3", "--removed-king", "d")
    assert "39 cards, 13 each, iterations 3-3-3-3-1" in capsys.readouterr().out
    with pytest.raises(CommandError, match="8b"):
        call_command("stoppa", "piccolo", "Kc Jc 3c", "As 8b 5b")


def test_command_verifies_a_deal(tmp_path, capsys):
    record = readme_record()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    call_command("stoppa", "deal", str(path))
    out = capsys.readouterr().out
    assert "ok: True" in out and "P1 +37" in out and "punto piccolo 1: P5 (count)" in out
    record["nets"]["P3"] = -12
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError, match="does not verify"):
        call_command("stoppa", "deal", str(path))
    out = capsys.readouterr().out
    assert "BAD nets.P3: claimed -12, actual -14" in out and "[net_mismatch]" in out
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("stoppa", "deal", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("stoppa", "deal", str(tmp_path / "missing.json"))
