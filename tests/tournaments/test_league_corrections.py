"""Correcting a recorded league leg names a reason (issue 34, item 1): refused without one
(``reason_required``, nothing written) by the service, the TD's match page and the API,
audited with the leg before and after; the same leg again changes nothing; after leg N is
saved the TD's form offers the next leg not yet recorded, never leg 1 by default."""

from __future__ import annotations

import re

import pytest

from core.errors import ServiceError
from tests.tournaments.test_api_leagues import leg_body
from tests.tournaments.test_api_td import errors
from tests.tournaments.test_leagues import HAWKS, LARKS, LEGS, larks_v_hawks, make_league, play
from tournaments.leagues.models import LeagueAuditEntry, Leg

pytestmark = pytest.mark.django_db

WRONG_WINNER = (1, LARKS[0:2], HAWKS[0:2], "away", 95)


def chosen_leg(page: str) -> str | None:
    """The leg the TD's form has chosen (the number select's selected option)."""
    select = re.search(r'<select name="number".*?</select>', page, re.S)
    assert select is not None
    found = re.search(r'<option value="(\d*)" selected>', select.group(0))
    return found.group(1) if found else None


def test_a_recorded_leg_changes_only_with_a_reason(client):
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    play(match, players, td, LEGS[:1])
    with pytest.raises(ServiceError) as refused:
        play(match, players, td, [WRONG_WINNER], reason="  ")
    assert refused.value.code == "reason_required" and refused.value.field == "reason"
    assert "Leg 1 is already recorded" in refused.value.message
    leg = Leg.objects.get(match=match, number=1)
    assert (leg.winner, leg.loser_score) == ("home", 100)
    assert not LeagueAuditEntry.objects.filter(action="leg corrected").exists()
    # The same leg again: nothing changes, no reason asked, no audit row.
    logged = LeagueAuditEntry.objects.count()
    play(match, players, td, LEGS[:1])
    assert LeagueAuditEntry.objects.count() == logged
    play(match, players, td, [WRONG_WINNER], reason="Away won, keyed the wrong way")
    entry = LeagueAuditEntry.objects.get(action="leg corrected")
    assert entry.reason == "Away won, keyed the wrong way"
    assert (entry.old["winner"], entry.old["loser_score"]) == ("home", 100)
    assert (entry.new["winner"], entry.new["loser_score"]) == ("away", 95)


def test_the_match_page_moves_on_to_the_next_open_leg_and_asks_a_reason(client):
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    client.force_login(td)
    url = f"/td/leagues/{league.pk}/matches/{match.pk}/"
    assert chosen_leg(client.get(url).content.decode()) == "1"

    def form(number, home, away, winner, loser_score, **extra):
        return {
            "number": number,
            "home_first": players[home[0]],
            "home_second": players[home[1]] if len(home) > 1 else "",
            "away_first": players[away[0]],
            "away_second": players[away[1]] if len(away) > 1 else "",
            "winner": winner,
            "loser_score": loser_score,
            **extra,
        }

    saved = client.post(url, form(*LEGS[0]))
    assert saved.status_code == 302 and saved["Location"] == f"{url}?after=1"
    assert chosen_leg(client.get(saved["Location"]).content.decode()) == "2"
    # Leg 3 saved before leg 2: on to leg 4, then back to leg 2 after the last.
    saved = client.post(url, form(*LEGS[2]))
    assert chosen_leg(client.get(saved["Location"]).content.decode()) == "4"
    for leg in (LEGS[3], LEGS[4]):
        saved = client.post(url, form(*leg))
    assert chosen_leg(client.get(saved["Location"]).content.decode()) == "2"
    saved = client.post(url, form(*LEGS[1]))
    page = client.get(saved["Location"]).content.decode()
    assert chosen_leg(page) == "" and "Reason for the change" in page  # every leg recorded

    refused = client.post(url, form(*WRONG_WINNER))
    assert refused.status_code == 400
    assert "give a reason to change it" in str(refused.context["form"].errors["reason"])
    assert Leg.objects.get(match=match, number=1).winner == "home"
    fixed = client.post(url, form(*WRONG_WINNER, reason="Away won"))
    assert fixed.status_code == 302
    assert Leg.objects.get(match=match, number=1).winner == "away"
    assert LeagueAuditEntry.objects.get(action="leg corrected").reason == "Away won"


def test_the_api_needs_a_reason_to_correct_a_leg(api):
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    api.force_authenticate(td)
    url = f"/api/v1/leagues/{league.pk}/matches/{match.pk}/legs/"
    assert api.post(url, leg_body(players, *LEGS[0]), format="json").status_code == 201
    body = leg_body(players, *WRONG_WINNER)
    assert errors(api.post(url, body, format="json"))[0][:2] == ("reason", "reason_required")
    assert Leg.objects.get(match=match, number=1).winner == "home"
    made = api.post(url, body | {"reason": "Away won"}, format="json")
    assert made.status_code == 201, made.content
    assert Leg.objects.get(match=match, number=1).winner == "away"
    assert LeagueAuditEntry.objects.get(action="leg corrected").reason == "Away won"
