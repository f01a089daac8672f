"""Result pages: the player's private link, the TD's desk, and who may do what."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results import services
from results.models import Dispute, Scorekeeper, Submission
from tests.factories import ClubFactory, UserFactory
from tournaments.models import AuditEntry, GameResult

pytestmark = pytest.mark.django_db


def test_player_reports_and_opponent_confirms_through_their_links(client, night):
    event, table, key_a, key_b = night
    page = client.get(reverse("player-page", args=[key_a]))
    body = page.content.decode()
    assert page.status_code == 200 and table.seat_b.player.name in body
    response = client.post(
        reverse("player-page", args=[key_a]),
        {"table": table.pk, "winner": "me", "loser_score": "97", "action": "report"},
    )
    assert response.status_code == 302
    page = client.get(reverse("player-page", args=[key_b]))
    assert "Confirm this result" in page.content.decode()
    version = Submission.objects.get(table=table).pk
    assert f'name="version" value="{version}"' in page.content.decode()
    client.post(
        reverse("player-page", args=[key_b]),
        {"table": table.pk, "version": version, "action": "confirm"},
    )
    assert GameResult.objects.get(table=table).winner_id == table.seat_a_id


def test_a_stale_confirm_is_refused_when_the_report_changed(client, night):
    """Hank reports "I won, 90"; Luca's page shows it; Hank changes it to "my opponent won,
    60"; Luca taps Confirm on the page he had: nothing is recorded, he is told to look again
    and sees the new report."""
    event, table, key_a, key_b = night
    hank = reverse("player-page", args=[key_a])
    client.post(hank, {"table": table.pk, "winner": "me", "loser_score": "90", "action": "report"})
    seen = client.get(reverse("player-page", args=[key_b])).content.decode()
    version = seen.split('name="version" value="')[1].split('"')[0]
    assert "they won, you scored 90." in seen
    client.post(
        hank, {"table": table.pk, "winner": "opponent", "loser_score": "60", "action": "report"}
    )
    response = client.post(
        reverse("player-page", args=[key_b]),
        {"table": table.pk, "version": version, "action": "confirm"},
        follow=True,
    )
    body = response.content.decode()
    assert response.redirect_chain == [(reverse("player-page", args=[key_b]), 302)]
    assert f"{table.seat_a.player.name} changed the report: check it again." in body
    assert "you won, they scored 60." in body  # the report as it now stands
    assert not GameResult.objects.filter(table=table).exists()
    assert not AuditEntry.objects.filter(table=table, action="confirmed").exists()


def test_bad_report_is_a_form_error(client, night):
    event, table, key_a, _ = night
    response = client.post(
        reverse("player-page", args=[key_a]),
        {"table": table.pk, "winner": "me", "loser_score": "130", "action": "report"},
    )
    assert response.status_code == 400 and "below 121" in response.content.decode()
    assert not Submission.objects.exists()


def test_unknown_link_is_404(client):
    assert client.get(reverse("player-page", args=["nope"])).status_code == 404


def test_td_rules_a_dispute_from_the_desk(client, night, td_user):
    event, table, key_a, key_b = night
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.submit(key_b, table=table, winner=table.seat_b, loser_score=95)
    client.force_login(td_user)
    desk = client.get(reverse("results-desk", args=[event.pk]))
    assert desk.status_code == 200 and "Rule this version" in desk.content.decode()
    chosen = Submission.objects.filter(table=table, winner=table.seat_b).first()
    client.post(
        reverse("results-rule", args=[event.pk]), {"table": table.pk, "submission": chosen.pk}
    )
    assert GameResult.objects.get(table=table).winner_id == table.seat_b_id
    assert not Dispute.objects.get(table=table).is_open


@pytest.mark.parametrize(
    ("who", "desk", "correct"),
    [
        ("anonymous", 302, 302),
        ("stranger_td", 404, 404),
        ("scorekeeper", 200, 404),
        ("td", 200, 302),
    ],
)
def test_who_may_do_what(client, night, td_user, who, desk, correct):
    event, table, key_a, key_b = night
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.submit(key_b, table=table, winner=table.seat_a, loser_score=95)
    if who == "stranger_td":
        user = UserFactory(username="stranger")
        ClubFactory().directors.add(user)
        client.force_login(user)
    elif who == "scorekeeper":
        user = UserFactory(username="keeper")
        Scorekeeper.objects.create(club=event.club, user=user)
        client.force_login(user)
    elif who == "td":
        client.force_login(td_user)
    assert client.get(reverse("results-desk", args=[event.pk])).status_code == desk
    response = client.post(
        reverse("results-correct", args=[event.pk]),
        {"table": table.pk, "winner": table.seat_b_id, "loser_score": "80", "reason": "Miscount"},
    )
    assert response.status_code == correct
    changed = GameResult.objects.get(table=table).winner_id == table.seat_b_id
    assert changed == (who == "td")


def test_paper_cards_import_page(client, night, td_user):
    event, table, *_ = night
    client.force_login(td_user)
    a, b = table.seat_a.player, table.seat_b.player
    csv_bytes = (
        "game,table,player,result,spread\n"
        f"1,{table.number},{a.name},W,+12\n1,{table.number},{b.name},L,-12\n"
    ).encode()
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("results-import", args=[event.pk]),
        {"file": SimpleUploadedFile("cards.csv", b"\xef\xbb\xbf" + csv_bytes, "text/csv")},
    )
    assert response.status_code == 200 and "1 games recorded" in response.content.decode()
    bad = client.post(
        reverse("results-import", args=[event.pk]),
        {"file": SimpleUploadedFile("cards.csv", b"just,nonsense\n", "text/csv")},
    )
    assert bad.status_code == 400 and "needs the columns" in bad.content.decode()


def test_player_page_collapses_to_waiting_and_polls_until_confirmed(client, night):
    event, table, key_a, key_b = night
    url = reverse("player-page", args=[key_a])
    client.post(url, {"table": table.pk, "winner": "me", "loser_score": "95", "action": "report"})
    page = client.get(url).content.decode()
    b_name = table.seat_b.player.name
    assert "Reported: you won, 95." in page and f"Waiting for {b_name} to confirm." in page
    token = page.split("?since=")[1].split('"')[0]
    assert 'hx-trigger="every 4s"' in page
    # Nothing changed: the poll is a 204; once the opponent confirms it gets the card anew.
    assert client.get(url, {"since": token}, headers={"HX-Request": "true"}).status_code == 204
    services.confirm_opponent(key_b, table=table, winner=table.seat_a, loser_score=95)
    card = client.get(url, {"since": token}, headers={"HX-Request": "true"})
    body = card.content.decode()
    assert card.status_code == 200 and "You won by 26." in body and "<html" not in body
    assert "hx-trigger" not in body  # confirmed: the poll stops
    assert f"Game 1 vs {b_name}: won by 26" in " ".join(client.get(url).content.decode().split())


def test_player_disputes_with_a_reason_and_their_own_version(client, night):
    event, table, key_a, key_b = night
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    url = reverse("player-page", args=[key_b])
    assert "Not right? Dispute it" in client.get(url).content.decode()
    missing = client.post(url, {"table": table.pk, "action": "dispute", "reason": " "})
    assert missing.status_code == 400 and "Say in a few words" in missing.content.decode()
    client.post(
        url,
        {
            "table": table.pk,
            "action": "dispute",
            "reason": "I pegged out first",
            "winner": "me",
            "loser_score": "100",
        },
    )
    dispute = Dispute.objects.get(table=table)
    assert dispute.is_open and dispute.reason == "I pegged out first"
    page = client.get(url).content.decode()
    assert "Disputed" in page and "find them at the desk" in page and "hx-trigger" not in page
    assert Submission.objects.filter(table=table, winner=table.seat_b, loser_score=100).exists()


def test_desk_finds_a_table_by_its_numbers_to_correct_it(client, night, td_user):
    event, table, key_a, key_b = night
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.confirm_opponent(key_b, table=table, winner=table.seat_a, loser_score=95)
    client.force_login(td_user)
    desk = reverse("results-desk", args=[event.pk])
    found = client.get(desk, {"game": "1", "table": str(table.number)}).content.decode()
    assert f"recorded as {table.seat_a.player.name} won by 26" in found
    assert "has these numbers" in client.get(desk, {"game": "1", "table": "99"}).content.decode()


def test_td_accepts_a_players_report_from_the_game_page(client, night, td_user):
    """A table with one player's report: the TD accepts it on the game page instead of
    retyping it; it goes through the one result service and the audit says so."""
    event, table, key_a, key_b = night
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    client.force_login(td_user)
    game = reverse("td-game", args=[event.pk, 1])
    page = client.get(game).content.decode()
    name = table.seat_a.player.name
    assert f"{name} reported: {name} won, 95." in page and "Accept this report" in page
    version = Submission.objects.get(table=table).pk
    accept = reverse("results-accept", args=[event.pk])
    # A version the TD did not see (the player changed it since) is refused.
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=85)
    stale = client.post(accept, {"table": table.pk, "version": version, "game": 1}, follow=True)
    assert f"{name} changed the report: check it again." in stale.content.decode()
    assert not GameResult.objects.filter(table=table).exists()
    latest = Submission.objects.get(table=table, status="pending").pk
    done = client.post(accept, {"table": table.pk, "version": latest, "game": 1}, follow=True)
    assert done.redirect_chain == [(game, 302)] and "Report accepted." in done.content.decode()
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.loser_score) == (table.seat_a_id, 85)
    assert AuditEntry.objects.filter(table=table, action="accepted", user=td_user).exists()
    assert "Accept this report" not in client.get(game).content.decode()
