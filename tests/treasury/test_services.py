"""The money desk's services on real Decimal values: a 24-player night with fees, a Q-pool and
a 29-hand pot rolled over from the night before, from the door to the closed ledger."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.errors import ServiceError
from scoring import acc_report
from scoring.models import SpecialHand
from scoring.services import recompute_standings
from tests.factories import (
    ClubMoneyFactory,
    EntryFactory,
    EventFactory,
    SidePoolFactory,
    event_with_field,
)
from tournaments import services as tournament_services
from tournaments.audit_chain import verify_chain
from tournaments.models import AuditEntry
from treasury import selectors, services
from treasury.models import LedgerLine, Payment, SidePool

pytestmark = pytest.mark.django_db
D = Decimal


def _play(event, games: int) -> None:
    for _ in range(games):
        round_ = tournament_services.draw_next_game(event)
        for table in round_.tables.filter(seat_b__isnull=False).order_by("number"):
            tournament_services.record_result(
                event, table=table, winner=table.seat_a, loser_score=80 + table.number
            )
    recompute_standings(event.pk, incremental=False)


@pytest.fixture
def club_books(td_user):
    """A club charging $10 with $1 per paid entrant held back for the ACC, a $5 Q-pool and a
    $1 29-hand pot that nobody won last night (4 players in: $4 rolled over)."""
    money = ClubMoneyFactory(hold_back_name="ACC", hold_back_per_entrant=D(1))
    club = money.club
    club.directors.add(td_user)
    q_pool = SidePoolFactory(club=club, name="Q-pool", kind=SidePool.Kind.Q_POOL, fee=D(5))
    hand_29 = SidePoolFactory(club=club, name="29 hand", kind=SidePool.Kind.HAND_29, fee=D(1))
    last_night = event_with_field(4, club=club, name="Last night")
    services.set_event_fees(last_night, "10", {hand_29.pk: "1"}, user=td_user)
    for entry in last_night.entries.all():
        services.set_payment(last_night, entry.pk, "paid", user=td_user)
        services.set_pool_stake(last_night, hand_29.pk, entry.pk, user=td_user)
    _play(last_night, 1)
    services.close_night(last_night, user=td_user)
    hand_29.refresh_from_db()
    assert hand_29.balance == D(4)
    return club, q_pool, hand_29


def test_a_24_player_night_from_the_door_to_the_closed_ledger(club_books, td_user):
    club, q_pool, hand_29 = club_books
    main_in = selectors.club_money(club).main_balance
    event = event_with_field(24, club=club, name="Tonight")
    entries = list(event.entries.order_by("pk"))
    services.set_event_fees(event, "10.00", {q_pool.pk: "5", hand_29.pk: "1"}, user=td_user)
    for entry in entries[:22]:
        services.set_payment(event, entry.pk, "paid", user=td_user)
    services.set_payment(event, entries[22].pk, "waived", user=td_user)
    assert [e.pk for e in selectors.who_owes(event)] == [entries[23].pk]
    totals = selectors.door_totals(event)
    assert (totals.paid, totals.waived, totals.unpaid) == (22, 1, 1)
    assert (totals.taken, totals.owed) == (D("220.00"), D("10.00"))
    services.set_payment(event, entries[23].pk, "waived", user=td_user)
    assert selectors.who_owes(event) == []
    # A fee changed after the door opened: who paid the old fee paid the new one.
    services.set_event_fees(event, "12", {q_pool.pk: "5", hand_29.pk: "1"}, user=td_user)
    assert selectors.door_totals(event).taken == D("264.00")
    changed = AuditEntry.objects.filter(event=event, action="fees_set").order_by("pk").last()
    assert changed.new["payments_moved_to_the_fee"] == 22  # each payment's change is said
    services.set_event_fees(event, "10", {q_pool.pk: "5", hand_29.pk: "1"}, user=td_user)
    assert selectors.door_totals(event).taken == D("220.00")
    for entry in entries[:16]:
        services.set_pool_stake(event, q_pool.pk, entry.pk, user=td_user)
    for entry in entries[:20]:
        services.set_pool_stake(event, hand_29.pk, entry.pk, user=td_user)
    _play(event, 3)

    sheet = selectors.payout_sheet(event)
    assert sheet.paid_entrants == 22 and sheet.gross == D(220)
    assert [(h.name, h.amount) for h in sheet.held_back] == [("ACC", D(22))]
    assert main_in == D(0) and sheet.pot == D(198)
    # Six places paid, one in four of 22: 6, 5, 4, 3, 2, 1 parts of 21, rounded down.
    assert sheet.place_amounts == tuple(D(x) for x in (56, 47, 37, 28, 18, 9))
    assert sheet.paid_total + sheet.carried_out + sheet.to_club == sheet.pot
    assert all(share.amount > 0 for share in sheet.shares)

    nights = {n.pool.name: n.result for n in selectors.pool_nights(event)}
    q = nights["Q-pool"]
    qualified = set(selectors.qualifiers(event))
    assert len(qualified) >= 6
    assert {s.entry_id for s in q.shares} == qualified & {e.pk for e in entries[:16]}
    assert q.takings == D(80) and q.paid_total + q.carried_out == D(80)
    pot_29 = nights["29 hand"]
    assert (pot_29.carried_in, pot_29.takings, pot_29.won) == (D(4), D(20), False)

    # The ACC report's payback: each place's share, and the night's figures.
    report = acc_report.event_report(event)
    paid = {line.entry_id: line.payback for line in report.lines if line.payback is not None}
    assert paid == {share.entry_id: share.amount for share in sheet.shares}
    figures = dict(report.payback.figures)
    assert (figures["Entry fees taken"], figures["ACC"], figures["Prize pot"]) == (
        D(220),
        D(22),
        D(198),
    )
    assert figures["Paid out"] + figures["Remainder"] == D(198)

    ledger = services.close_night(event, user=td_user)
    assert ledger.balance == 0
    assert ledger.takings == D(220) + D(80) + D(20)
    lines = LedgerLine.objects.filter(ledger=ledger)
    assert sum(line.amount for line in lines.filter(item="payout")) == ledger.payouts
    assert lines.filter(item="payout", pot="main").count() == len(sheet.shares)
    assert AuditEntry.objects.filter(event=event, action="night_closed").exists()
    # The desk's audit rows are links of the event's hash chain, like the results'.
    assert verify_chain(event).intact and verify_chain(event).entries > 24
    with pytest.raises(ServiceError) as exc:
        services.set_payment(event, entries[0].pk, "unpaid", user=td_user)
    assert exc.value.code == "night_closed"

    # The next night starts with the carried pots: the 29 hand's $24 and the main remainder.
    hand_29.refresh_from_db()
    assert hand_29.balance == D(24)
    next_night = EventFactory(club=club, name="Next week")
    EntryFactory.create_batch(4, event=next_night)
    carried = {n.pool.name: n.result.carried_in for n in selectors.pool_nights(next_night)}
    assert carried["29 hand"] == D(24)
    assert selectors.payout_sheet(next_night).carried_in == sheet.carried_out

    # A 29 held next week takes the whole pot.
    services.set_event_fees(next_night, "10", {hand_29.pk: "1"}, user=td_user)
    holder = next_night.entries.first()
    services.set_pool_stake(next_night, hand_29.pk, holder.pk, user=td_user)
    SpecialHand.objects.create(event=next_night, entry=holder, points=29, game_number=1)
    won = {n.pool.name: n.result for n in selectors.pool_nights(next_night)}["29 hand"]
    assert [(s.entry_id, s.amount) for s in won.shares] == [(holder.pk, D(25))]


def test_a_night_without_the_money_desk_reports_no_payback(club_books):
    club, _q_pool, _hand_29 = club_books
    event = event_with_field(8, club=club, name="No fees tonight")
    _play(event, 1)
    report = acc_report.event_report(event)
    assert report.payback.figures == [] and all(line.payback is None for line in report.lines)


def test_a_result_corrected_after_the_close_marks_the_payouts_to_recheck(club_books, td_user):
    club, _q, _h = club_books
    event = event_with_field(4, club=club)
    for entry in event.entries.all():
        services.set_payment(event, entry.pk, "paid", user=td_user)
    _play(event, 1)
    services.close_night(event, user=td_user)
    assert not selectors.payouts_to_recheck(event)
    table = event.rounds.get(number=1).tables.order_by("number").first()
    tournament_services.record_result(
        event, table=table, winner=table.seat_b, loser_score=70, user=td_user, reason="misread"
    )
    assert selectors.payouts_to_recheck(event)
    assert AuditEntry.objects.filter(event=event, action="corrected").count() == 1
    services.reopen_night(event, user=td_user)
    assert selectors.stored_ledger(event) is None
    services.close_night(event, user=td_user)
    assert not selectors.payouts_to_recheck(event)


def test_reopening_gives_the_pots_back_what_they_started_with(club_books, td_user):
    club, _q, hand_29 = club_books
    first = selectors.stored_ledger(club.events.get(name="Last night"))
    event = event_with_field(4, club=club)
    with pytest.raises(ServiceError) as exc:
        services.close_night(event, user=td_user)  # nobody paid: the close asks first
    assert exc.value.code == "owing_not_confirmed" and "Player" in exc.value.message
    services.close_night(event, user=td_user, confirm_owing=True)
    closed = AuditEntry.objects.get(event=event, action="night_closed")
    assert len(closed.new["owing"]) == 4
    with pytest.raises(ServiceError) as exc:
        services.reopen_night(first.event, user=td_user)
    assert exc.value.code == "not_latest_night"
    services.reopen_night(event, user=td_user)
    services.reopen_night(first.event, user=td_user)
    hand_29.refresh_from_db()
    assert hand_29.balance == D(0)


def test_the_door_refuses_bad_input_with_a_code(club_books, td_user):
    club, q_pool, _h = club_books
    event = event_with_field(2, club=club)
    entry = event.entries.first()
    other = event_with_field(1).entries.first()
    cases = [
        (lambda: services.set_payment(event, entry.pk, "maybe"), "bad_payment_status"),
        (lambda: services.set_payment(event, other.pk, "paid"), "unknown_entry"),
        (lambda: services.set_payment(event, entry.pk, "paid", amount="-1"), "bad_money"),
        (lambda: services.set_payment(event, entry.pk, "paid", amount=1.5), "bad_money"),
        (lambda: services.set_payment(event, entry.pk, "paid", amount="1.234"), "bad_money"),
        (lambda: services.set_event_fees(event, "ten"), "bad_money"),
        (lambda: services.set_event_fees(event, "NaN"), "bad_money"),
        (lambda: services.set_event_fees(event, "5", {999999: "1"}), "unknown_pool"),
        (lambda: services.set_pool_stake(event, q_pool.pk, entry.pk), "unknown_pool"),
    ]
    for call, code in cases:
        with pytest.raises(ServiceError) as exc:
            call()
        assert exc.value.code == code
    assert not Payment.objects.filter(event=event).exists()


def test_a_payment_is_audited_once_per_change(club_books, td_user):
    club, _q, _h = club_books
    event = event_with_field(1, club=club)
    entry = event.entries.get()
    entry.player.name = "Ștefan Zoë Ñúñez"
    entry.player.save()
    services.set_payment(event, entry.pk, "paid", user=td_user)
    services.set_payment(event, entry.pk, "paid", user=td_user)
    services.set_payment(event, entry.pk, "waived", user=td_user)
    audit = AuditEntry.objects.filter(event=event, action="payment").order_by("pk")
    assert [(a.new["status"], a.new["amount"]) for a in audit] == [
        ("paid", "10.00"),
        ("waived", "0.00"),
    ]
    assert audit[0].new["player"] == "Ștefan Zoë Ñúñez"


def test_the_sheet_pays_by_the_playoffs_places(td_user):
    import random

    from tournaments.models import Event

    money = ClubMoneyFactory()
    event = event_with_field(8, club=money.club, kind=Event.Kind.PLAYOFF_ONLY)
    for entry in event.entries.all():
        services.set_payment(event, entry.pk, "paid", user=td_user)
    tournament_services.create_playoff(event)
    rng = random.Random(5)
    while ready := list(
        event.bracket.matches.filter(decided=False, seat_a__isnull=False, seat_b__isnull=False)
    ):
        match = rng.choice(ready)
        winner = rng.choice([match.seat_a_id, match.seat_b_id])
        while not event.bracket.matches.get(pk=match.pk).decided:
            tournament_services.record_playoff_game(
                event, match=match.code, winner=winner, loser_score=90
            )
    recompute_standings(event.pk, incremental=False)
    event.bracket.refresh_from_db()
    sheet = selectors.payout_sheet(event)
    # 8 paid x 10 = 80; two places paid (one in four): 2/3 and 1/3, rounded down; 1 left.
    assert sheet.place_amounts == (D(53), D(26))
    first, second = sheet.shares
    assert (first.entry_id, first.place, first.amount) == (event.bracket.champion_id, 1, D(53))
    assert (second.place, second.amount) == (2, D(26))
    assert sheet.carried_out == D(1)
