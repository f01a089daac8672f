"""The money desk's pages: the door with one click per entry (HTMX swaps the row), the
printable payout sheet, the pools and closing the night; accented names survive; TDs only."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.services import recompute_standings
from tests.factories import (
    ClubMoneyFactory,
    EntryFactory,
    SidePoolFactory,
    UserFactory,
    event_with_field,
)
from tournaments import services as tournament_services
from treasury import selectors, services
from treasury.models import Payment, SidePool

pytestmark = pytest.mark.django_db
ACCENTED = "Ștefan Zoë Ñúñez"


@pytest.fixture
def event(td_user):
    money = ClubMoneyFactory(entry_fee=Decimal(10), coin=Decimal("0.25"))
    found = event_with_field(3, club=money.club, name="Soirée")
    EntryFactory(event=found, player__name=ACCENTED)
    found.club.directors.add(td_user)
    return found


def _played(event) -> None:
    round_ = tournament_services.draw_next_game(event)
    for table in round_.tables.order_by("number"):
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=90 + table.number
        )
    recompute_standings(event.pk, incremental=False)


def test_the_desk_renders_the_door_with_an_accented_name(td_client, event):
    body = td_client.get(reverse("money-desk", args=[event.pk])).content.decode()
    assert ACCENTED in body and "Money desk" in body
    assert 'id="owing"' in body and "4 still owe" in body
    td_page = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert reverse("money-desk", args=[event.pk]) in td_page


def test_one_click_marks_an_entry_paid_and_htmx_swaps_its_row(td_client, event):
    entry = event.entries.get(player__name=ACCENTED)
    url = reverse("money-pay", args=[event.pk, entry.pk])
    response = td_client.post(url, {"status": "paid"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    row = response.content.decode()
    assert row.lstrip().startswith(f'<tr id="door-{entry.pk}"') and ACCENTED in row
    assert "10.00" in row
    assert 'id="totals" hx-swap-oob="true"' in row and "1 paid, 0 waived, 3 still owe" in row
    assert 'id="owing" hx-swap-oob="true"' in row
    assert Payment.objects.get(entry=entry).amount == Decimal("10.00")
    refused = td_client.post(url, {"status": "maybe"}, headers={"HX-Request": "true"})
    assert refused.status_code == 400 and "paid, unpaid, waived" in refused.content.decode()


def test_the_door_checks_a_player_in_beside_the_payment(td_client, event, client):
    entry = event.entries.get(player__name=ACCENTED)
    entry.checked_in = False
    entry.save(update_fields=["checked_in"])
    url = reverse("money-check-in", args=[event.pk, entry.pk])
    response = td_client.post(url, {"here": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    row = response.content.decode()
    assert row.lstrip().startswith(f'<tr id="door-{entry.pk}"')
    assert f'id="here-{entry.pk}"' in row and 'aria-pressed="true"' in row
    entry.refresh_from_db()
    assert entry.checked_in
    td_client.post(url, {"here": "0"})  # without HTMX: back to the desk
    entry.refresh_from_db()
    assert not entry.checked_in
    # Nobody outside the club's books: a 404, nothing changed.
    outsider = UserFactory()
    client.force_login(outsider)
    assert client.post(url, {"here": "1"}).status_code == 404
    entry.refresh_from_db()
    assert not entry.checked_in


def test_the_payout_sheet_prints_with_the_remainder_said(td_client, event, td_user):
    for entry in event.entries.all():
        services.set_payment(event, entry.pk, "paid", user=td_user)
    _played(event)
    body = td_client.get(reverse("money-sheet", args=[event.pk])).content.decode()
    # 4 paid x 10 = 40, one place paid (one in four): all of it to the winner.
    assert "payout-sheet" in body and "data-print" in body
    assert "40.00 USD" in body and "Remainder: 0.00 USD." in body
    sheet = selectors.payout_sheet(event)
    winner = event.entries.get(pk=sheet.shares[0].entry_id).player.name
    assert winner in body
    # Until the event finishes, the sheet says its places are the current ones.
    assert 'id="sheet-provisional"' in body
    tournament_services.finish_event(event)
    body = td_client.get(reverse("money-sheet", args=[event.pk])).content.decode()
    assert 'id="sheet-provisional"' not in body and winner in body


def test_closing_the_night_shows_the_ledger_balancing_to_zero(td_client, event, td_user):
    pool = SidePoolFactory(club=event.club, name="29 hand", kind=SidePool.Kind.HAND_29)
    td_client.post(
        reverse("money-fees", args=[event.pk]),
        {"entry_fee": "5", f"pool-{pool.pk}": "on", f"pool-{pool.pk}-fee": "1"},
    )
    entry = event.entries.get(player__name=ACCENTED)
    td_client.post(reverse("money-stake", args=[event.pk, entry.pk]), {"pool": pool.pk, "count": 1})
    td_client.post(reverse("money-pay", args=[event.pk, entry.pk]), {"status": "paid"})
    _played(event)
    page = td_client.get(reverse("money-desk", args=[event.pk])).content.decode()
    assert "Close the night" in page and 'id="balance"' in page
    # The others have not paid: the close names them and asks.
    assert 'id="confirm-owing"' in page
    refused = td_client.post(reverse("money-close", args=[event.pk]), follow=True)
    assert "have not paid" in refused.content.decode() and not selectors.stored_ledger(event)
    response = td_client.post(
        reverse("money-close", args=[event.pk]), {"confirm_owing": "on"}, follow=True
    )
    body = response.content.decode()
    assert "night closed" in body and "<strong>0.00</strong>" in body
    pool.refresh_from_db()
    assert pool.balance == Decimal("1.00")


def test_another_clubs_td_gets_a_404(client, event):
    user = UserFactory(username="elsewhere")
    client.force_login(user)
    assert client.get(reverse("money-desk", args=[event.pk])).status_code == 404
    entry = event.entries.first()
    response = client.post(reverse("money-pay", args=[event.pk, entry.pk]), {"status": "paid"})
    assert response.status_code == 404
    assert not Payment.objects.exists()


def test_the_club_sets_its_money_and_adds_a_pool(td_client, event):
    url = reverse("club-money", args=[event.club_id])
    assert td_client.get(url).status_code == 200
    saved = td_client.post(
        url,
        {
            "currency": "EUR",
            "coin": "0.05",
            "entry_fee": "12.50",
            "hold_back_name": "Club fund",
            "hold_back_per_entrant": "0",
            "hold_back_percent": "10",
            "remainder_to": "top",
            "unpaid_rule": "settle",
        },
    )
    assert saved.status_code == 302
    money = selectors.club_money(event.club)
    assert (money.currency, money.coin, money.entry_fee) == (
        "EUR",
        Decimal("0.05"),
        Decimal("12.50"),
    )
    pool = {
        "name": "Skunk pot",
        "kind": "skunk",
        "fee": "0.25",
        "share": "ratio",
        "ratios_text": "60, 40",
        "payout_percent": "100",
        "held_back_percent": "10",
        "rolls_over": "on",
        "winner_rule": "all",
    }
    assert td_client.post(reverse("club-pool-new", args=[event.club_id]), pool).status_code == 302
    skunk = SidePool.objects.get(club=event.club, name="Skunk pot")
    assert skunk.ratios == ["60", "40"] and skunk.fee == Decimal("0.25")
    refused = td_client.post(
        reverse("club-pool-new", args=[event.club_id]), pool | {"name": "Other", "ratios_text": ""}
    )
    assert refused.status_code == 400 and "ratios must be positive" in refused.content.decode()
    page = td_client.get(url).content.decode()
    assert "Skunk pot" in page
