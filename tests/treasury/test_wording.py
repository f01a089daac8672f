"""The money desk in the reader's words (issue 33, item 12): the night ledger's lines and
the money entries of the results desk's audit log are sentences in the page's language, with
amounts in its number format; an item or a shape they do not know still reads as words."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from books.pools import LedgerItem
from books.pools import LedgerLine as BooksLine
from scoring.services import recompute_standings
from tests.factories import ClubMoneyFactory, SidePoolFactory, event_with_field
from tournaments import services as tournament_services
from treasury import selectors, services
from treasury.models import SidePool
from treasury.wording import ledger_rows, ledger_sentence, money_audit_sentence

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def night(td_user):
    """Four paid players (one in a 29-hand pot nobody holds), one game played, the night
    closed: a $1 ACC hold-back per paid entrant, the winner paid, the pot carried."""
    money = ClubMoneyFactory(
        entry_fee=D(10), coin=D(1), hold_back_name="ACC", hold_back_per_entrant=D(1)
    )
    event = event_with_field(4, club=money.club, name="Serata")
    event.club.directors.add(td_user)
    pool = SidePoolFactory(club=event.club, name="29 hand", kind=SidePool.Kind.HAND_29, fee=D(1))
    services.set_event_fees(event, "10", {pool.pk: "1"}, user=td_user)
    entries = list(event.entries.order_by("pk"))
    for entry in entries:
        services.set_payment(event, entry.pk, "paid", user=td_user)
    services.set_pool_stake(event, pool.pk, entries[0].pk, user=td_user)
    round_ = tournament_services.draw_next_game(event)
    for table in round_.tables.order_by("number"):
        tournament_services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    recompute_standings(event.pk, incremental=False)
    return event


def test_the_ledger_reads_as_italian_sentences(td_client, night, td_user):
    desk = reverse("money-desk", args=[night.pk])
    winner = selectors.entry_names(night)[selectors.payout_sheet(night).shares[0].entry_id]
    for closed in (False, True):  # the preview, then the stored ledger
        page = td_client.get(desk, {"lang": "it"}).content.decode()
        assert "Quote d&#x27;iscrizione" in page
        assert f"Premio: 1º posto, {winner}" in page
        assert "Trattenuto per ACC" in page
        assert "29 hand: riportato al prossimo evento" in page
        assert "entry fees" not in page and "place 1" not in page and "remainder<" not in page
        if not closed:
            services.close_night(night, user=td_user)
    german = td_client.get(desk, {"lang": "de"}).content.decode()
    assert f"Preis: 1. Platz, {winner}" in german and "Startgelder" in german


def test_the_results_desks_log_says_the_money_in_italian(td_client, night, td_user):
    entry = night.entries.order_by("pk").first()
    services.set_payment(night, entry.pk, "waived", user=td_user)
    services.close_night(night, user=td_user)
    page = td_client.get(reverse("results-desk", args=[night.pk]), {"lang": "it"})
    body = page.content.decode()
    assert f"{entry.name}: esonerato (prima: pagato 10,00)" in body
    assert f"{entry.name}: pagato 10,00 (prima: non pagato)" in body
    assert f"29 hand: {entry.name} partecipa" in body
    assert "Quota d&#x27;iscrizione 10,00 (prima: 10,00)" not in body
    assert "Quota d&#x27;iscrizione 10,00; pool: 29 hand 1,00" in body
    assert "Serata chiusa: riportati montepremi 1,00, 29 hand 1,00" in body
    assert "{" not in body.split('id="nav"')[1].split("</main>")[0]
    assert "status:" not in body and "balances" not in body


def test_every_line_and_action_has_words_even_unknown_ones():
    names = {7: "Anna Rossi"}
    with translation.override("it"):
        prize = BooksLine("main", LedgerItem.PAYOUT, D(30), 7, "place 2")
        assert ledger_sentence(prize, names) == "Premio: 2º posto, Anna Rossi"
        pool_prize = BooksLine("Q-pool", LedgerItem.PAYOUT, D(5), 7)
        assert ledger_sentence(pool_prize, names) == "Q-pool: vinto da Anna Rossi"
        # An item of a later version of the books: words, not a code.
        later = BooksLine("main", "fee_from_prize", D(10), 7, "fee settled from the prize")  # type: ignore[arg-type]
        assert ledger_sentence(later, names) == "Quote d'iscrizione: Fee from prize, Anna Rossi"
        rows = ledger_rows([prize, BooksLine("main", LedgerItem.TAKINGS, D(40))], names)
        assert [(r.incoming, r.amount) for r in rows] == [(False, D(30)), (True, D(40))]
        paid = {"player": "Anna Rossi", "status": "paid", "amount": "1234.50"}
        unpaid = {"player": "Anna Rossi", "status": "unpaid", "amount": "0.00"}
        assert money_audit_sentence("payment", unpaid, paid) == (
            "Anna Rossi: pagato 1.234,50 (prima: non pagato)"
        )
        reason = paid | {"reason": "due serate"}
        assert "motivo: due serate" in money_audit_sentence("payment", unpaid, reason)
        closed = {"balances": {"main": "2.00", "29 hand": "15.00", "Q-pool": "0.00"}}
        assert money_audit_sentence("night_closed", None, closed) == (
            "Serata chiusa: riportati montepremi 2,00, 29 hand 15,00"
        )
        stakes = {"pool": "Skunk", "player": "Anna Rossi", "count": 3}
        assert money_audit_sentence("pool_stake", None, stakes) == (
            "Skunk: Anna Rossi partecipa con 3 puntate"
        )
        odd = money_audit_sentence("payment", None, {"player": ["x"], "status": {"a": 1}})
        assert "{" not in odd and "[" not in odd
        assert money_audit_sentence("corrected", None, {"winner": "x"}) == ""
    with translation.override("en"):
        assert money_audit_sentence("payment", unpaid, paid) == (
            "Anna Rossi: paid 1,234.50 (before: unpaid)"
        )


def test_the_logs_other_values_never_show_a_raw_dict():
    """A value of a shape the results desk has no sentence for reads as words."""
    from tournaments.templatetags.pegboard import audit_value

    said = audit_value({"balances": {"main": "2.00", "29 hand": "15.00"}, "pools": ["Q"]})
    assert said == "balances: main 2.00, 29 hand 15.00, pools: Q"


def test_what_the_lead_adds_reads_as_words_too():
    """The unpaid winner's fee settled from the prize, the close's owing and choices, a
    payment's reason (said once: the log shows the entry's own reason below)."""
    names = {7: "Anna Rossi"}
    with translation.override("it"):
        settled = BooksLine("main", LedgerItem.TO_CLUB, D(10), 7, "fee settled from the prize")
        assert ledger_sentence(settled, names) == (
            "Quota di Anna Rossi trattenuta dal premio, al club"
        )
        carried = BooksLine("main", LedgerItem.CARRIED_OUT, D(10), 7, "fee settled from the prize")
        assert "riportata al prossimo evento" in ledger_sentence(carried, names)
        remainder = BooksLine("main", LedgerItem.TO_CLUB, D(1), None, "remainder")
        assert ledger_sentence(remainder, names) == "Resto al club"
        closed = {
            "balances": {"main": "3.00"},
            "owing": ["Bruno Neri"],
            "choices": {"Anna Rossi": "settle", "Bruno Neri": "pass_down", "X": "coin_toss"},
        }
        said = money_audit_sentence("night_closed", None, closed)
        assert said == (
            "Serata chiusa: riportati montepremi 3,00; non pagato: Bruno Neri; "
            "Anna Rossi: il premio salda la quota; Bruno Neri: il posto passa al successivo; "
            "X: coin toss"
        )
        part = {"player": "Anna Rossi", "status": "paid", "amount": "5.00", "reason": "metà"}
        unpaid = {"player": "Anna Rossi", "status": "unpaid", "amount": "0.00"}
        assert money_audit_sentence("payment", unpaid, part).endswith("· motivo: metà")
        assert "motivo" not in money_audit_sentence("payment", unpaid, part, reason_shown=True)


def test_a_fee_change_says_how_many_payments_moved_with_it():
    from django.utils import translation

    from treasury import wording

    with translation.override("it"):
        said = wording.money_audit_sentence(
            "fees_set",
            {"entry_fee": "10.00"},
            {"entry_fee": "12.00", "payments_moved_to_the_fee": 22},
        )
    assert "22 pagamenti della vecchia quota portati alla nuova" in said
