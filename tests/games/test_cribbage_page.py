"""The hand checker page (no login) and ``manage.py cribbage``."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command


def test_checker_page_lists_every_combination(client):
    page = client.get("/cribbage/")
    assert page.status_code == 200 and 'name="hand"' in page.content.decode()
    result = client.get("/cribbage/", {"hand": "5h 5c 5s jd", "starter": "5♦"})
    body = result.content.decode()
    assert result.status_code == 200
    assert "29" in body and "15 for 2: 5H JD" in body and "nobs for 1: JD" in body


def test_checker_fragment_for_htmx_and_errors(client):
    fragment = client.get(
        "/cribbage/", {"mode": "play", "pile": "7H 8C 7D", "last": "on"}, HTTP_HX_REQUEST="true"
    )
    body = fragment.content.decode()
    assert "<html" not in body and "go for 1: 7D" in body
    bad = client.get("/cribbage/", {"hand": "5H 5C 5S QQ", "starter": "5D"})
    assert bad.status_code == 400 and "QQ" in bad.content.decode()


def test_command_prints_the_breakdown(capsys):
    call_command("cribbage", "hand", "5H", "5C", "5S", "JD", "--starter", "5D")
    out = capsys.readouterr().out
    assert "total 29" in out and "15 for 2: 5S 5H 5D" in out


def test_command_rejects_a_bad_card():
    with pytest.raises(CommandError, match="5X"):
        call_command("cribbage", "hand", "5H", "5C", "5X", "JD", "--starter", "5D")
