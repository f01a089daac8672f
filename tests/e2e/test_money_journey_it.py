"""Issue 33's "done when", in a browser: a money night in Italian at a phone's size.

The treasurer types the club's payout table, sets tonight's fees the Italian way ("7,50"),
keys the door with the digit keys and the arrows, records a part payment with its reason and
leaves one player unpaid. The games are played through the services (the browser is for the
money pages) so that the unpaid player wins; the sheet marks them and settles the fee owed from
the prize (the club's default rule). The close asks for the confirmation of who still owes,
then balances; the club's next night starts with the carried pots. Axe on every page.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from scoring.services import recompute_standings
from tests.e2e.conftest import PHONE
from tests.e2e.night import NAMES, TD_PASSWORD
from tests.e2e.test_money_night import ROWS_FIT_JS, _club_with_a_carried_29_pot
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments import services as tournament_services
from tournaments.models import Event
from treasury import selectors, services
from treasury.models import ClubMoney, ClubRole, LedgerLine, NightLedger, Payment, SidePool

pytestmark = pytest.mark.e2e
D = Decimal
FEE = D("7.50")


def _it(amount: Decimal) -> str:
    """An amount as the Italian pages write it: 7,50 (no amount here reaches a thousand)."""
    assert abs(amount) < 1000, amount
    return f"{amount:.2f}".replace(".", ",")


def _play_so_that_wins(event: Event, winner_id: int, games: int) -> None:
    """Every table of ``games`` games recorded through the services: ``winner_id`` wins each
    of theirs, seat A every other."""
    for _ in range(games):
        round_ = tournament_services.draw_next_game(event)
        for table in round_.tables.filter(seat_b__isnull=False).order_by("number"):
            winner = table.seat_b if table.seat_b_id == winner_id else table.seat_a
            tournament_services.record_result(
                event, table=table, winner=winner, loser_score=80 + table.number
            )
    recompute_standings(event.pk, incremental=False)


def _key(page: Page, key: str, pressed: str) -> None:
    """Press a digit key on the focused row; wait for the swapped row (still focused)."""
    row_id = page.evaluate("document.activeElement.id")
    page.keyboard.press(key)
    expect(page.locator(f"#{pressed}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(f"#{row_id}")).to_be_focused()
    page.wait_for_function("document.getAnimations().length === 0")


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_a_money_night_in_italian_on_a_phone(open_page: Callable[[], Page], checks, viewport):
    club, director, _q_pool, hand_29 = _club_with_a_carried_29_pot()
    carried_29 = hand_29.balance  # 4,00: nobody held a 29 last night
    carried_main = ClubMoney.objects.get(club=club).main_balance
    UserFactory(username="tesoriera")
    services.set_club_role(club, "tesoriera", ClubRole.TREASURER)
    event = EventFactory(club=club, name="Serata del giovedì", games_planned=3)
    for name in NAMES:  # 8 players, accents in their names
        EntryFactory(event=event, player__name=name)

    page = open_page()
    page.goto(f"/accounts/login/?next=/td/clubs/{club.pk}/money/")
    page.get_by_label("Username").fill("tesoriera")
    page.get_by_label("Password").fill(TD_PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.locator("#payout-table")).to_be_visible()

    # 1. The club's payout table, typed on the club money page: from 1 paid entrant 100; from
    # 6 on, 65 and 35.
    page.goto(f"/td/clubs/{club.pk}/money/?lang=it")
    expect(page.locator("#payout-table")).to_have_text("Tabella premi")
    page.locator("#id_min_0").fill("1")
    page.locator("#id_percents_0").fill("100")
    page.locator("#id_min_1").fill("6")
    page.locator("#id_percents_1").fill("65, 35")
    page.get_by_role("button", name="Salvare la tabella").click()
    expect(page.locator(".alert-success")).to_contain_text("La tabella premi è salvata.")
    expect(page.locator("#id_percents_1")).to_have_value("65, 35")
    assert selectors.stored_table_rows(club) == [
        {"min_entrants": 1, "percents": ["100"]},
        {"min_entrants": 6, "percents": ["65", "35"]},
    ]
    checks.a11y(page, "club money page in Italian, the table saved")

    # 2. Tonight's fees, typed the Italian way, and the 29 hand (its pot carried from last night).
    desk = f"/td/events/{event.pk}/money/"
    page.goto(desk)
    expect(page.locator("h1")).to_contain_text("Cassa: Serata del giovedì")
    fees = page.locator("#fees-form")
    fees.locator("#id_entry_fee").fill("7,50")
    fees.locator(f"#id_pool-{hand_29.pk}").check()
    expect(fees.locator(f"#id_pool-{hand_29.pk}-fee")).to_have_value("1,00")
    fees.get_by_role("button", name="Imposta le quote").click()
    expect(page.locator("#totals")).to_contain_text(
        "0 pagati, 0 esonerati, 8 devono ancora pagare."
    )
    expect(page.locator("#totals")).to_contain_text("60,00 USD")  # 8 still owe 7,50
    assert selectors.event_fees(event).entry_fee == FEE
    expect(page.locator("#door-keys")).to_contain_text("4 29 hand")
    checks.a11y(page, "money desk in Italian on a phone, the fees set")

    # 3. The door by keyboard, in the order the desk lists the players: the first six pay (1),
    # the first four also take the 29 hand (4); the seventh pays part of the fee, the eighth
    # nothing.
    row_ids = page.locator("[data-door-row]").evaluate_all("rows => rows.map((r) => r.id)")
    rows = [int(row_id.removeprefix("door-")) for row_id in row_ids]
    names = dict(event.entries.values_list("pk", "player__name"))
    full, part, unpaid = rows[:6], rows[6], rows[7]
    page.locator(f"#door-{full[0]}").focus()
    for i, entry in enumerate(full):
        if i:
            page.keyboard.press("ArrowDown")
            expect(page.locator(f"#door-{entry}")).to_be_focused()
        _key(page, "1", f"pay-{entry}-paid")
        expect(page.locator("#door-said")).to_have_text(f"{names[entry]}: pagato 7,50")
        if i < 4:
            _key(page, "4", f"stake-{entry}-{hand_29.pk}")
    expect(page.locator("#totals")).to_contain_text(
        "6 pagati, 0 esonerati, 2 devono ancora pagare."
    )
    expect(page.locator("#totals")).to_contain_text("Incassato: 45,00 USD")
    expect(page.locator("#pools-table")).to_contain_text("4,00")  # 4 stakes of 1,00
    fit = page.evaluate(ROWS_FIT_JS)
    assert fit["scroll"] <= fit["width"], fit
    assert not fit["outside"], fit["outside"]

    details = page.locator("#part-payment")
    details.locator("summary").click()
    expect(details.locator("summary")).to_have_text("Un pagamento diverso dalla quota")
    details.locator("#part-entry").select_option(str(part))
    details.locator("#part-amount").fill("5,00")
    details.locator("#part-reason").fill("metà stasera")
    details.get_by_role("button", name="Registra il pagamento").click()
    expect(page.locator(".alert-success")).to_contain_text("Il pagamento è registrato.")
    expect(page.locator("#off-the-fee")).to_contain_text(f"{names[part]}: 5,00 USD · metà stasera")
    expect(page.locator("#totals")).to_contain_text(
        "7 pagati, 0 esonerati, 1 devono ancora pagare."
    )
    expect(page.locator("#totals")).to_contain_text("Incassato: 50,00 USD")
    expect(page.locator("#owing li")).to_have_count(1)
    expect(page.locator("#owing")).to_contain_text(names[unpaid])
    payments = {p.entry_id: p for p in Payment.objects.filter(event=event)}
    assert all(payments[e].status == "paid" and payments[e].amount == FEE for e in full)
    assert payments[part].amount == D("5.00") and payments[part].reason == "metà stasera"
    assert unpaid not in payments or payments[unpaid].status == "unpaid"
    checks.a11y(page, "money desk in Italian on a phone, the door marked")

    # 4. The games, through the services: the player who has not paid wins all three.
    _play_so_that_wins(event, unpaid, 3)
    tournament_services.finish_event(event)
    sheet = selectors.payout_sheet(event)
    assert sheet.paid_entrants == 7  # the part payer counts; the unpaid winner does not
    pot = D(45) + D(5) - 7 * D(1) + carried_main  # takings, less the ACC's 1,00 a paid entrant
    assert sheet.pot == pot
    first, second = sheet.shares
    assert first.entry_id == unpaid and first.place == 1
    assert first.prize == (pot * D("0.65")).quantize(D(1), "ROUND_DOWN")  # the club's coin: 1
    assert second.amount == (pot * D("0.35")).quantize(D(1), "ROUND_DOWN")
    assert first.settled == FEE and first.amount == first.prize - FEE
    page.goto(desk)
    shares = page.locator("#shares tbody tr")
    expect(shares.first).to_contain_text(names[unpaid])
    expect(page.locator(f"#unpaid-{unpaid}")).to_have_text("non ha pagato")
    expect(shares.first).to_contain_text(
        f"Premio {_it(first.prize)} USD; 7,50 USD ne vanno a saldare la quota dovuta."
    )
    expect(shares.first.locator("td").last).to_have_text(_it(first.amount))
    expect(shares.nth(1).locator("td").last).to_have_text(_it(second.amount))
    expect(page.locator("#remainder")).to_contain_text(
        f"{_it(sheet.carried_out)} USD passa al prossimo evento del club."
    )
    checks.a11y(page, "money desk in Italian on a phone, the sheet")

    # 5. The close: the confirmation of who still owes is required; the browser stops the form.
    close_form = page.locator("#close-form")
    confirm = close_form.locator("#confirm_owing")
    expect(close_form.locator("label[for=confirm_owing]")).to_have_text(
        f"1 giocatore non ha pagato ({names[unpaid]}): chiudi comunque."
    )
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    close_form.get_by_role("button", name="Chiudi la serata").click()
    assert confirm.evaluate("(box) => box.validity.valueMissing")
    expect(page.locator("#closed")).to_have_count(0)
    assert not NightLedger.objects.filter(event=event).exists()
    # Without the browser's check (an old browser, a form sent by hand), the server refuses.
    confirm.evaluate("(box) => { box.required = false; }")
    close_form.get_by_role("button", name="Chiudi la serata").click()
    expect(page.locator(".alert-danger")).to_contain_text(
        f"1 giocatore non ha pagato: {names[unpaid]}. Conferma per chiudere comunque la serata."
    )
    assert not NightLedger.objects.filter(event=event).exists()
    page.locator("#close-form #confirm_owing").check()
    page.locator("#close-form").get_by_role("button", name="Chiudi la serata").click()
    expect(page.locator("#closed")).to_have_text("serata chiusa")
    expect(page.locator(".alert-success")).to_contain_text(
        "La serata è chiusa: i saldi passano al prossimo evento."
    )
    assert dialogs == ["Chiudere la serata? I saldi passano al prossimo evento del club."] * 3
    expect(page.locator("#balance")).to_contain_text("0,00")
    ledger = NightLedger.objects.get(event=event)
    assert ledger.balance == 0
    lines = list(LedgerLine.objects.filter(ledger=ledger))

    def total(pot_name: str, item: str) -> Decimal:
        return sum((x.amount for x in lines if (x.pot, x.item) == (pot_name, item)), D(0))

    assert total("main", "takings") == 6 * FEE + D("5.00") == D("50.00")
    assert ledger.takings == D("50.00") + 4 * D(1)  # and the 29 hand's stakes
    settled = [line for line in lines if line.entry_id == unpaid and line.pot == "main"]
    assert [(line.item, line.amount) for line in settled if line.item != "payout"] == [
        ("carried_out", FEE)
    ]
    money = ClubMoney.objects.get(club=club)
    assert money.main_balance == total("main", "carried_out") == sheet.carried_out
    assert sheet.carried_out == pot - first.prize - second.amount + FEE  # the settled 7,50 in it
    hand_29.refresh_from_db()
    assert hand_29.balance == carried_29 + 4 * D(1) == total("29 hand", "carried_out")
    assert ledger.carried_out == money.main_balance + hand_29.balance
    expect(page.locator("#door")).to_contain_text(names[part])
    checks.a11y(page, "money desk in Italian on a phone, the night closed")

    # 6. The club's next night: its desk starts with the carried pots.
    next_night = EventFactory(club=club, name="Serata successiva")
    for name in ["Zoë Ferrà", "Ștefan Năstase", "Dolores Weiß", "Tomás Ó Briain"]:
        EntryFactory(event=next_night, player__name=name)
    page.goto(f"/td/events/{next_night.pk}/money/")
    expect(page.locator("h1")).to_contain_text("Serata successiva")
    row = page.locator("#pools tbody tr", has_text="29 hand")
    expect(row.locator("td").nth(1)).to_have_text(_it(hand_29.balance))
    expect(page.locator("#sheet-figures")).to_contain_text(
        f"Riportato{_it(money.main_balance)} USD"
    )
    assert SidePool.objects.get(pk=hand_29.pk).balance == D(8)
    checks.a11y(page, "money desk in Italian on a phone, the next night")
