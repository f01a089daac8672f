"""Issue 27's "done when", in a browser: a 24-player night with an entry fee, a Q-pool and a
29-hand pot rolled over from the night before runs from the door to a printed payout sheet;
the ledger balances; the club's next night starts with the carried pot.

The night before is set up and closed through the services (4 players in the 29 hand, nobody
held one: $4 carried). Tonight the TD marks the door by keyboard in the browser (1, 2, 3 on a
focused row; one entry marked paid by mistake and put right), the games are recorded through
the services (the browser is for the money pages), then the payout sheet (its figures add up
to the pot, the remainder said), the close, and the next night's money desk.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Season
from scoring.services import recompute_standings
from tests.e2e.conftest import PHONE
from tests.e2e.night import NAMES, TD_PASSWORD, log_in
from tests.factories import (
    ClubMoneyFactory,
    EntryFactory,
    EventFactory,
    SidePoolFactory,
    UserFactory,
    event_with_field,
)
from tournaments import services as tournament_services
from tournaments.models import Event
from treasury import selectors, services
from treasury.models import ClubRole, NightLedger, Payment, SidePool

pytestmark = pytest.mark.e2e
D = Decimal


def _amount(text: str) -> Decimal:
    """ "1,234.50 USD" or "56.00" as a Decimal."""
    found = re.search(r"-?[\d,]+\.\d\d", text)
    assert found, text
    return D(found.group(0).replace(",", ""))


def _play(event: Event, games: int) -> None:
    """Every table of ``games`` games recorded through the services: seat A wins."""
    for _ in range(games):
        round_ = tournament_services.draw_next_game(event)
        for table in round_.tables.filter(seat_b__isnull=False).order_by("number"):
            tournament_services.record_result(
                event, table=table, winner=table.seat_a, loser_score=80 + table.number
            )
    recompute_standings(event.pk, incremental=False)


def _club_with_a_carried_29_pot():
    """A club charging $10 (whole-dollar coin), $1 per paid entrant held back for the ACC, a
    $5 Q-pool and a $1 29-hand pot that nobody won last night: $4 carried."""
    director = UserFactory(username="director")
    money = ClubMoneyFactory(hold_back_name="ACC", hold_back_per_entrant=D(1))
    club = money.club
    club.directors.add(director)
    q_pool = SidePoolFactory(club=club, name="Q-pool", kind=SidePool.Kind.Q_POOL, fee=D(5))
    hand_29 = SidePoolFactory(club=club, name="29 hand", kind=SidePool.Kind.HAND_29, fee=D(1))
    last_night = event_with_field(4, club=club, name="Last night", games_planned=1)
    services.set_event_fees(last_night, "10", {hand_29.pk: "1"}, user=director)
    for entry in last_night.entries.all():
        services.set_payment(last_night, entry.pk, "paid", user=director)
        services.set_pool_stake(last_night, hand_29.pk, entry.pk, user=director)
    _play(last_night, 1)
    services.close_night(last_night, user=director)
    hand_29.refresh_from_db()
    assert hand_29.balance == D(4)
    return club, director, q_pool, hand_29


DOOR_KEYS = {"paid": "1", "unpaid": "2", "waived": "3"}  # treasury.door.PAY_KEYS


def _mark(page: Page, entry_pk: int, status: str) -> None:
    """Focus the entry's row at the door, press its key, wait for the swapped row."""
    page.locator(f"#door-{entry_pk}").focus()
    page.keyboard.press(DOOR_KEYS[status])
    expect(page.locator(f"#pay-{entry_pk}-{status}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(f"#door-{entry_pk}")).to_be_focused()
    # htmx settles the swapped row's classes after the swap, so Bootstrap's colour transition
    # runs: wait for it to end (axe would measure a half-faded button's contrast).
    page.wait_for_function("document.getAnimations().length === 0")


def test_a_money_night_from_the_door_to_the_next_night(
    open_page: Callable[[], Page], checks, viewport
):
    club, director, q_pool, hand_29 = _club_with_a_carried_29_pot()
    event = EventFactory(club=club, name="Soirée d'automne", games_planned=3)
    for i in range(24):
        EntryFactory(event=event, player__name=NAMES[i] if i < len(NAMES) else f"Player {i:03d}")
    entries = list(event.entries.order_by("pk"))
    services.set_event_fees(event, "10.00", {q_pool.pk: "5", hand_29.pk: "1"}, user=director)

    td = open_page()
    desk = f"/td/events/{event.pk}/money/"
    log_in(td, desk)
    expect(td.locator("#totals")).to_contain_text("0 paid, 0 waived, 24 still owe.")
    expect(td.locator("#owing")).to_contain_text("Ștefan Țurcanu")
    checks.a11y(td, "money desk, the door open")

    # The door by keyboard: 22 pay, one is waived, one is marked paid by mistake and put
    # right (2: unpaid), then waived (3).
    for entry in entries[:22]:
        _mark(td, entry.pk, "paid")
    _mark(td, entries[22].pk, "waived")
    mistaken = entries[23]
    _mark(td, mistaken.pk, "paid")
    expect(td.locator("#totals")).to_contain_text("23 paid, 1 waived, 0 still owe.")
    _mark(td, mistaken.pk, "unpaid")
    expect(td.locator("#totals")).to_contain_text("22 paid, 1 waived, 1 still owe.")
    expect(td.locator("#totals")).to_contain_text("220.00 USD")
    expect(td.locator("#owing li")).to_have_count(1)
    expect(td.locator("#owing")).to_contain_text(mistaken.player.name)
    _mark(td, mistaken.pk, "waived")
    expect(td.locator("#totals")).to_contain_text("22 paid, 2 waived, 0 still owe.")
    expect(td.locator("#owing")).to_contain_text("Nobody: everyone has paid or was waived.")
    statuses = dict(Payment.objects.filter(event=event).values_list("entry_id", "status"))
    assert sum(s == "paid" for s in statuses.values()) == 22
    assert statuses[mistaken.pk] == "waived" and statuses[entries[22].pk] == "waived"
    checks.a11y(td, "money desk, the door marked")

    # The pools' stakes, then the games, through the services: 16 in the Q-pool, 20 in the 29s.
    for entry in entries[:16]:
        services.set_pool_stake(event, q_pool.pk, entry.pk, user=director)
    for entry in entries[:20]:
        services.set_pool_stake(event, hand_29.pk, entry.pk, user=director)
    _play(event, 3)
    tournament_services.finish_event(event)  # the final places: all three games played
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED

    # The printable payout sheet: its shares and the remainder add up to the pot.
    td.goto(desk)
    td.get_by_role("link", name="Payout sheet (print)").click()
    expect(td).to_have_url(re.compile(rf"/td/events/{event.pk}/money/sheet/$"))
    sheet = selectors.payout_sheet(event)
    figures = td.locator("#sheet-figures")
    expect(figures).to_contain_text("220.00 USD")  # takings: 22 paid x $10
    expect(figures).to_contain_text("22.00 USD")  # held back for the ACC
    pot = _amount(figures.locator("dd strong").inner_text())
    assert pot == D(198) == sheet.pot
    amounts = [_amount(cell) for cell in td.locator("#shares tbody td.text-end").all_inner_texts()]
    assert amounts == [D(56), D(47), D(37), D(28), D(18), D(9)]
    paid_out = _amount(td.locator("#shares tfoot strong").inner_text())
    remainder_text = td.locator("#remainder").inner_text()
    remainder = _amount(remainder_text)
    assert sum(amounts) == paid_out == D(195)
    assert remainder == D(3) and paid_out + remainder == pot
    assert "Remainder: 3.00 USD." in remainder_text
    winner = event.entries.get(pk=sheet.shares[0].entry_id).player.name
    expect(td.locator("#shares tbody tr").first).to_contain_text(winner)
    expect(td.locator(".payout-sheet")).to_contain_text("29 hand: not won, 24.00 USD carried")
    # (A statement list, not an arrow function: Playwright would call a function it is given.)
    td.evaluate("window.__printed = 0; window.print = () => { window.__printed += 1; }; 0")
    td.get_by_role("button", name="Print").click()
    assert td.evaluate("window.__printed") == 1
    checks.a11y(td, "payout sheet")

    # Close the night: the ledger balances to zero; the 29 hand carries $24.
    td.get_by_role("link", name="Money desk").click()
    expect(td.locator("#pools")).to_contain_text("29 hand")
    checks.a11y(td, "money desk, before the close")
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Close the night").click()
    expect(td.locator("#closed")).to_have_text("night closed")
    expect(td.locator("#balance")).to_contain_text("0.00")
    ledger = NightLedger.objects.get(event=event)
    assert ledger.balance == 0
    assert ledger.takings == D(220) + D(80) + D(20)
    assert ledger.carried_in == D(4)
    hand_29.refresh_from_db()
    assert hand_29.balance == D(24)
    checks.a11y(td, "money desk, the night closed")

    # The club's next night starts with the carried pot (and the main remainder).
    next_night = EventFactory(club=club, name="Next week")
    EntryFactory.create_batch(4, event=next_night)
    td.goto(f"/td/events/{next_night.pk}/money/")
    row = td.locator("#pools tbody tr", has_text="29 hand")
    expect(row.locator("td").nth(1)).to_have_text("24.00")
    carried_main = sheet.carried_out
    if carried_main:
        td.goto(f"/td/events/{next_night.pk}/money/sheet/")
        expect(td.locator("#sheet-figures")).to_contain_text(f"{carried_main:.2f} USD")
    checks.a11y(td, "money desk, the next night")


def test_the_treasurer_keeps_the_books_and_not_the_games(
    open_page: Callable[[], Page], checks, viewport
):
    """A treasurer signs in: the nav's Money link, the club's money page, the season books
    (the closed night in them), the money desk; the TD's event page is a 404."""
    club, director, _q_pool, _hand_29 = _club_with_a_carried_29_pot()
    last_night = NightLedger.objects.get(club=club).event
    Season.objects.create(
        club=club,
        name="Saison 2026",
        start=last_night.date.replace(month=1, day=1),
        end=last_night.date.replace(month=12, day=31),
    )
    UserFactory(username="treasurer")
    services.set_club_role(club, "treasurer", ClubRole.TREASURER)
    tonight = event_with_field(4, club=club, name="Ce soir")

    page = open_page()
    page.goto("/accounts/login/?next=/")
    page.get_by_label("Username").fill("treasurer")
    page.get_by_label("Password").fill(TD_PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    nav_toggle = page.locator(".navbar-toggler")
    if nav_toggle.is_visible():
        nav_toggle.click()
    page.get_by_role("link", name="Money", exact=True).click()
    page.get_by_role("link", name=club.name).click()
    expect(page.locator("h1")).to_contain_text(club.name)
    expect(page.locator("#club-events")).to_contain_text("Ce soir")
    checks.a11y(page, "club money page, a treasurer")

    page.get_by_role("link", name="Season books").click()
    expect(page.locator("#season-books tbody")).to_contain_text("Last night")
    expect(page.locator("#season-totals")).to_contain_text("44.00 USD")  # 4 x ($10 + $1)
    checks.a11y(page, "season books")

    page.goto(f"/td/events/{tonight.pk}/money/")
    expect(page.locator("#totals")).to_contain_text("0 paid, 0 waived, 4 still owe.")
    expect(page.get_by_role("link", name="Back to the event")).to_have_count(0)
    checks.a11y(page, "money desk, a treasurer")
    # The TD's pages, with the treasurer's cookies (a fetch: a 404 page would log a console error).
    assert page.request.get(f"/td/events/{tonight.pk}/").status == 404
    assert page.request.get(f"/td/events/{tonight.pk}/money/").status == 200


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_the_treasurer_edits_the_payout_table_on_a_phone(
    open_page: Callable[[], Page], checks, viewport
):
    """Issue 33, item 5: the treasurer types the club's payout table on a phone; a rising row
    is refused beside its field, the preview shows each place's money for a field, and the
    table is saved."""
    club = ClubMoneyFactory(entry_fee=D(10)).club
    UserFactory(username="treasurer")
    services.set_club_role(club, "treasurer", ClubRole.TREASURER)

    page = open_page()
    page.goto(f"/accounts/login/?next=/td/clubs/{club.pk}/money/")
    page.get_by_label("Username").fill("treasurer")
    page.get_by_label("Password").fill(TD_PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.locator("#payout-table")).to_be_visible()
    page.locator("#id_min_0").fill("1")
    page.locator("#id_percents_0").fill("100")
    page.locator("#id_min_1").fill("8")
    page.locator("#id_percents_1").fill("10, 20, 70")
    page.get_by_role("button", name="Save the table").click()
    expect(page.locator("#id_percents_1-errors")).to_contain_text("a lower place never pays more")
    expect(page.locator("#id_percents_1")).to_have_attribute("aria-invalid", "true")
    # The refusal is an HTTP 400 page, which Chromium logs; that one is expected.
    assert all("payout-table/" in e and "status of 400" in e for e in checks.console_errors)
    checks.console_errors.clear()
    checks.a11y(page, "payout table refused, a phone")

    page.locator("#id_percents_1").fill("65, 35")
    page.locator("#table-preview-entrants").fill("8")
    page.locator("#table-preview-fee").fill("7.50")
    page.get_by_role("button", name="Preview these rows").click()
    expect(page.locator("#payout-preview tbody")).to_contain_text("39.00")
    expect(page.locator("#payout-preview tbody")).to_contain_text("21.00")
    page.get_by_role("button", name="Save the table").click()
    expect(page.locator(".alert-success")).to_contain_text("The payout table is saved.")
    expect(page.locator("#id_percents_1")).to_have_value("65, 35")
    assert selectors.stored_table_rows(club)[1] == {"min_entrants": 8, "percents": ["65", "35"]}
    checks.a11y(page, "payout table saved, a phone")


# Every control of every row inside the viewport (none cut off or off to the right), and the
# page as a whole not wider than the phone.
ROWS_FIT_JS = """() => {
    const width = window.innerWidth;
    const outside = [];
    document.querySelectorAll("[data-door-row]").forEach((row) => {
        row.querySelectorAll("button, .door-name").forEach((el) => {
            const box = el.getBoundingClientRect();
            if (box.left < 0 || box.right > width + 0.5) {
                outside.push(`${row.id} ${el.id || el.className}: ${box.left}-${box.right}`);
            }
        });
    });
    return {scroll: document.documentElement.scrollWidth, width, outside};
}"""


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_the_door_in_italian_on_a_phone(open_page: Callable[[], Page], checks, viewport):
    """Issue 33: the treasurer's language on a 390-px phone. The fees typed the Italian way
    ("7,50"), the door keyed with 1/2/3 and the arrows (one Tab stop a row), the payout
    section following each mark, every control of a row on screen, axe clean."""
    club, director, q_pool, hand_29 = _club_with_a_carried_29_pot()
    event = EventFactory(club=club, name="Serata del giovedì", games_planned=2)
    names = [*NAMES[:12], "Maria Cristina Esposito-Bianchi"]
    names += [f"Giocatore {i:02d}" for i in range(13 - len(names))]  # 13, as in the issue
    for name in names:
        EntryFactory(event=event, player__name=name)
    rows = sorted(event.entries.select_related("player"), key=lambda e: e.player.name)

    td = open_page()
    desk = f"/td/events/{event.pk}/money/"
    log_in(td, desk)
    td.goto(desk + "?lang=it")
    fees = td.locator("#fees-form")
    expect(fees.locator("#id_entry_fee")).to_have_value("10,00")
    expect(fees.locator(f"#id_pool-{q_pool.pk}-fee")).to_have_value("5,00")
    fees.locator("#id_entry_fee").fill("7,50")
    fees.locator(f"#id_pool-{q_pool.pk}").check()
    fees.locator(f"#id_pool-{hand_29.pk}").check()
    fees.get_by_role("button", name="Imposta le quote").click()
    expect(td.locator("#totals")).to_contain_text("97,50 USD")  # 13 still owe 7,50
    assert selectors.event_fees(event).entry_fee == D("7.50")
    expect(td.locator("#door-keys")).to_contain_text("1 Pagato")
    checks.a11y(td, "money desk in Italian on a phone")

    # The door: the first row, 1 (paid); down a row, 1; 3 (waived) then 2 (unpaid) on the
    # third; 5 puts the first into the Q-pool. Each mark brings the payout section along.
    first = td.locator(f"#door-{rows[0].pk}")
    first.focus()
    td.keyboard.press("1")
    expect(td.locator(f"#pay-{rows[0].pk}-paid")).to_have_attribute("aria-pressed", "true")
    expect(td.locator(f"#door-{rows[0].pk}")).to_be_focused()
    expect(td.locator("#door-said")).to_have_text(f"{rows[0].name}: pagato 7,50")
    expect(td.locator("#totals")).to_contain_text("Incassato: 7,50 USD")
    expect(td.locator("#sheet-figures")).to_contain_text("1 (quota 7,50 USD)")
    td.keyboard.press("ArrowDown")
    expect(td.locator(f"#door-{rows[1].pk}")).to_be_focused()
    td.keyboard.press("1")
    expect(td.locator(f"#pay-{rows[1].pk}-paid")).to_have_attribute("aria-pressed", "true")
    expect(td.locator("#sheet-figures")).to_contain_text("2 (quota 7,50 USD)")
    expect(td.locator("#ledger")).to_contain_text("15,00")
    td.keyboard.press("ArrowDown")
    td.keyboard.press("3")
    expect(td.locator(f"#pay-{rows[2].pk}-waived")).to_have_attribute("aria-pressed", "true")
    td.keyboard.press("2")
    expect(td.locator(f"#pay-{rows[2].pk}-unpaid")).to_have_attribute("aria-pressed", "true")
    expect(td.locator(f"#door-{rows[2].pk}")).to_be_focused()
    # One Tab stop a row: Tab moves to the next player, not through the row's buttons.
    td.keyboard.press("Tab")
    expect(td.locator(f"#door-{rows[3].pk}")).to_be_focused()
    td.keyboard.press("Shift+Tab")
    td.keyboard.press("ArrowUp")
    td.keyboard.press("ArrowUp")
    expect(td.locator(f"#door-{rows[0].pk}")).to_be_focused()
    td.keyboard.press("5")  # the pools by name: 4 the 29 hand, 5 the Q-pool
    stake = td.locator(f"#stake-{rows[0].pk}-{q_pool.pk}")
    expect(stake).to_have_attribute("aria-pressed", "true")
    expect(td.locator("#pools-table")).to_contain_text("5,00")
    # The arrows reach the row's buttons too (Enter presses one, Escape goes back).
    td.keyboard.press("ArrowRight")
    expect(td.locator(f"#here-{rows[0].pk}")).to_be_focused()
    td.keyboard.press("Escape")
    expect(td.locator(f"#door-{rows[0].pk}")).to_be_focused()
    td.wait_for_function("document.getAnimations().length === 0")
    assert Payment.objects.filter(event=event, status="paid").count() == 2

    fit = td.evaluate(ROWS_FIT_JS)
    assert fit["scroll"] <= fit["width"], fit
    assert not fit["outside"], fit["outside"]
    checks.a11y(td, "money desk in Italian on a phone, the door marked")

    # The night closed meanwhile (another treasurer's phone): a mark is refused and says why
    # in its row and aloud; nothing changes.
    services.close_night(event, user=director, confirm_owing=True)  # 11 still owe
    td.locator(f"#door-{rows[3].pk}").focus()
    td.keyboard.press("1")
    expect(td.locator(f"#door-{rows[3].pk} [role=alert]")).to_contain_text("La serata è chiusa")
    expect(td.locator("#door-said")).to_contain_text("La serata è chiusa")
    assert Payment.objects.filter(event=event, status="paid").count() == 2
    # The refusal is a 400 (as without JavaScript), which Chromium logs as a failed load.
    refused = [e for e in checks.console_errors if "status of 400" in e]
    assert len(refused) == 1, checks.console_errors
    checks.console_errors.remove(refused[0])
