"""The money desk's pages: the door with one click per entry (HTMX swaps the row), the
printable payout sheet, the pools and closing the night; accented names survive; TDs only."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

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
from treasury.forms import read_amount
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


def _swapped_row(body: str, entry) -> bool:
    """The answer starts with the entry's row, one keyboard stop (HTMX swaps it in place)."""
    first = body.lstrip().split(">", 1)[0]
    return (
        first.startswith("<li ") and f'id="door-{entry.pk}"' in first and "data-door-row" in first
    )


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
    assert _swapped_row(row, entry) and ACCENTED in row
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
    assert _swapped_row(row, entry)
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


# --- Amounts in the reader's format (issue 33, item 9) --------------------------------------


@pytest.mark.parametrize(
    ("language", "typed", "read"),
    [
        ("it", "7,50", "7.50"),
        ("it", "7.50", "7.50"),  # a point is a decimal point in every language
        ("it", "1.000", "1.000"),  # then refused by the field: three decimals, not a thousand
        ("de", "12,5", "12.5"),
        ("ro", " 0,25 ", "0.25"),
        ("en", "7.50", "7.50"),
        ("en", "10", "10"),
    ],
)
def test_amounts_are_read_in_the_readers_format(language, typed, read):
    with translation.override(language):
        assert read_amount(typed) == Decimal(read)


@pytest.mark.parametrize(
    ("language", "typed"),
    [
        ("it", "1.000,00"),  # a digit group mark is never read: refused, not misread
        ("it", "1,000.00"),
        ("it", "7,5,0"),
        ("it", "dieci"),
        ("en", "7,50"),
        ("en", "1,000.50"),
        ("de", "-5"),
        ("ro", "\u0665"),  # an Arabic-Indic five
    ],
)
def test_an_amount_the_reader_could_not_mean_is_refused(language, typed):
    with translation.override(language):
        assert read_amount(typed) is None


def _desk_in(client, event, language: str) -> str:
    """The desk in ``language`` (kept in the language cookie for the posts that follow)."""
    return client.get(reverse("money-desk", args=[event.pk]), {"lang": language}).content.decode()


def test_italian_fees_are_typed_and_shown_with_a_comma(td_client, event):
    pool = SidePoolFactory(club=event.club, name="29 hand", kind=SidePool.Kind.HAND_29, fee=1)
    page = _desk_in(td_client, event, "it")
    # The page prefills the fees in Italian and takes them back as they are.
    assert 'value="10,00"' in page and 'value="1,00"' in page
    url = reverse("money-fees", args=[event.pk])
    saved = td_client.post(
        url, {"entry_fee": "7,50", f"pool-{pool.pk}": "on", f"pool-{pool.pk}-fee": "1,00"}
    )
    assert saved.status_code == 302
    assert selectors.event_fees(event).entry_fee == Decimal("7.50")
    assert selectors.running_pools(event) == {pool.pk: Decimal("1.00")}
    page = _desk_in(td_client, event, "it")
    assert 'value="7,50"' in page and "non è un importo" not in page


def test_german_and_english_fees(td_client, event):
    url = reverse("money-fees", args=[event.pk])
    _desk_in(td_client, event, "de")
    assert td_client.post(url, {"entry_fee": "12,50"}).status_code == 302
    assert selectors.event_fees(event).entry_fee == Decimal("12.50")
    assert 'value="12,50"' in _desk_in(td_client, event, "de")
    _desk_in(td_client, event, "en")
    assert td_client.post(url, {"entry_fee": "7.50"}).status_code == 302
    assert selectors.event_fees(event).entry_fee == Decimal("7.50")
    assert 'value="7.50"' in _desk_in(td_client, event, "en")


def test_a_fee_that_is_no_amount_is_refused_beside_its_field(td_client, event):
    _desk_in(td_client, event, "it")
    url = reverse("money-fees", args=[event.pk])
    refused = td_client.post(url, {"entry_fee": "dieci"})
    body = refused.content.decode()
    assert refused.status_code == 400
    assert "Scrivi un importo come 7,50." in body and 'aria-invalid="true"' in body
    assert 'value="dieci"' in body  # kept, to be put right
    assert selectors.event_fees(event).entry_fee == Decimal("10.00")
    # A digit group mark is refused, not misread; so is an Italian "1.000" (three decimals).
    assert td_client.post(url, {"entry_fee": "1.000,00"}).status_code == 400
    assert td_client.post(url, {"entry_fee": "1.000"}).status_code == 400
    assert td_client.post(url, {"entry_fee": "7,505"}).status_code == 400  # three decimals
    assert selectors.event_fees(event).entry_fee == Decimal("10.00")


def test_the_club_money_form_in_italian(td_client, event):
    url = reverse("club-money", args=[event.club_id])
    page = td_client.get(url, {"lang": "it"}).content.decode()
    assert 'value="10,00"' in page and 'value="0,25"' in page
    saved = td_client.post(
        url,
        {
            "currency": "EUR",
            "coin": "0,05",
            "entry_fee": "7,50",
            "hold_back_name": "ACC",
            "hold_back_per_entrant": "0,50",
            "hold_back_percent": "2,5",
            "remainder_to": "carry",
            "unpaid_rule": "settle",
        },
    )
    assert saved.status_code == 302
    money = selectors.club_money(event.club)
    assert (money.coin, money.entry_fee, money.hold_back_per_entrant) == (
        Decimal("0.05"),
        Decimal("7.50"),
        Decimal("0.50"),
    )
    assert money.hold_back_percent == Decimal("2.5")
    page = td_client.get(url).content.decode()
    assert 'value="7,50"' in page and 'value="2,50"' in page
    pool = {
        "name": "Q-pool",
        "kind": "q_pool",
        "fee": "2,50",
        "share": "even",
        "payout_percent": "100",
        "held_back_percent": "0",
        "winner_rule": "all",
    }
    assert td_client.post(reverse("club-pool-new", args=[event.club_id]), pool).status_code == 302
    assert SidePool.objects.get(club=event.club, name="Q-pool").fee == Decimal("2.50")
    skunk = pool | {"name": "Skunk", "kind": "skunk", "share": "ratio", "ratios_text": "60,5; 39,5"}
    assert td_client.post(reverse("club-pool-new", args=[event.club_id]), skunk).status_code == 302
    assert SidePool.objects.get(club=event.club, name="Skunk").ratios == ["60.5", "39.5"]


# --- The door: keys in any language, and what follows each mark (issue 33, items 10, 11) ----


def test_the_doors_keys_are_digits_said_in_the_legend(td_client, event):
    pool = SidePoolFactory(club=event.club, name="Q-pool", kind=SidePool.Kind.Q_POOL, fee=5)
    services.set_event_fees(event, "10", {pool.pk: "5"})
    entry = event.entries.get(player__name=ACCENTED)
    page = _desk_in(td_client, event, "it")
    assert f'id="pay-{entry.pk}-paid" data-key="1"' in page
    assert f'id="pay-{entry.pk}-unpaid" data-key="2"' in page
    assert f'id="pay-{entry.pk}-waived" data-key="3"' in page
    assert f'id="stake-{entry.pk}-{pool.pk}" data-key="4"' in page
    assert 'data-key="p"' not in page and 'data-key="u"' not in page
    legend = page.split('id="door-keys"')[1].split("</p>")[0]
    assert "<kbd>1</kbd> Pagato" in legend and "<kbd>3</kbd> Esonerato" in legend
    assert "<kbd>4</kbd> Q-pool" in legend
    assert ">dentro<" not in page  # the pool's toggle is named by the pool
    assert "js/door.js" in page
    # Without JavaScript every button is a plain form and a Tab stop; the script makes the
    # rows the stops (an HTMX answer comes with them made so).
    assert 'tabindex="-1"' not in page and "data-door-row tabindex" not in page
    marked = td_client.post(
        reverse("money-pay", args=[event.pk, entry.pk]),
        {"status": "paid"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert 'data-door-row tabindex="0"' in marked and 'tabindex="-1"' in marked


def test_each_mark_brings_the_payout_sheet_and_the_ledger_along(td_client, event):
    """A mark's answer carries the totals, the pools, the sheet and the ledger's preview out
    of band: the page never shows "Taken 10,00" above "0 x 10,00"."""
    pool = SidePoolFactory(club=event.club, name="29 hand", kind=SidePool.Kind.HAND_29, fee=1)
    services.set_event_fees(event, "10", {pool.pk: "1"})
    _played(event)
    entry = event.entries.get(player__name=ACCENTED)
    _desk_in(td_client, event, "it")
    htmx = {"HX-Request": "true"}
    body = td_client.post(
        reverse("money-pay", args=[event.pk, entry.pk]), {"status": "paid"}, headers=htmx
    ).content.decode()
    for part in ("totals", "owing", "pools-table", "sheet-section", "ledger-section"):
        assert f'id="{part}" hx-swap-oob="true"' in body, part
    sheet = body.split('id="sheet-section"')[1]
    assert "1 (quota 10,00 USD)" in sheet  # the sheet follows the door
    ledger = body.split('id="ledger-section"')[1]
    assert "Quote d&#x27;iscrizione" in ledger and "10,00" in ledger
    assert f'<div id="door-said" hx-swap-oob="innerHTML">{ACCENTED}: pagato 10,00</div>' in body
    # A pool's toggle by HTMX: the row, the pool's takings and the ledger follow it.
    body = td_client.post(
        reverse("money-stake", args=[event.pk, entry.pk]),
        {"pool": pool.pk, "count": 1},
        headers=htmx,
    ).content.decode()
    assert _swapped_row(body, entry)
    assert f'id="stake-{entry.pk}-{pool.pk}"' in body and 'aria-pressed="true"' in body
    assert "29 hand: puntate" in body.split('id="ledger-section"')[1]
    assert f"29 hand: {ACCENTED} partecipa" in body
    assert selectors.stakes(event) == {entry.pk: {pool.pk: 1}}


def test_a_mark_costs_a_bounded_number_of_queries(td_client, event, django_assert_max_num_queries):
    for i in range(12):
        EntryFactory(event=event, player__name=f"Extra {i:02d}")
    entry = event.entries.get(player__name=ACCENTED)
    url = reverse("money-pay", args=[event.pk, entry.pk])
    td_client.get(reverse("money-desk", args=[event.pk]))
    with django_assert_max_num_queries(55):  # the same with 4 entries or 400: no N+1
        td_client.post(url, {"status": "paid"}, headers={"HX-Request": "true"})
