"""A night that runs itself at the door (issue 28), the services: online registration with a cap
and a waiting list, self check-in (own link, the door's QR), and event templates."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from core.errors import ServiceError
from tests.factories import (
    ClubMoneyFactory,
    EventFactory,
    PlayerFactory,
    SidePoolFactory,
    event_with_field,
)
from tournaments import services
from tournaments.models import Entry, Event, EventTemplate, Registration, WaitingPlace
from tournaments.services import door, registration, templates
from treasury import services as money
from treasury.models import EventFees, EventPool

pytestmark = pytest.mark.django_db
NAMES = ["Ștefan Popescu", "Łucja Nowak", "Jürgen Weiß", "Niccolò Bianchi", "Ann Whitfield",
         "Bob Ng", "Zoë Lindqvist", "Øyvind Berg", "Carla Rossi", "Dan Mills"]  # fmt: skip


def _open(cap: int | None = 8) -> Event:
    event = EventFactory(name="Thursday Ösel")
    return registration.set_registration(event, registration_open=True, cap=cap)


def _codes(call) -> str:
    with pytest.raises(ServiceError) as exc:
        call()
    return exc.value.code


def test_the_ninth_waits_and_moves_up_when_one_of_eight_withdraws():
    event = _open(8)
    made = [registration.register_online(event, name=n) for n in NAMES]
    assert [r.entry is not None for r in made] == [True] * 8 + [False, False]
    assert list(event.waiting_list.values_list("registration__player__name", "position")) == [
        ("Carla Rossi", 1),
        ("Dan Mills", 2),
    ]
    assert registration.registration_state(made[8]) == (Registration.State.WAITING, 1)
    # Łucja withdraws through the one withdrawal service: Carla is in, Dan moves to 1.
    services.withdraw_entry(made[1].entry)
    made[8].refresh_from_db()
    assert registration.registration_state(made[8]) == (Registration.State.IN, None)
    assert made[8].entry.player.name == "Carla Rossi" and made[8].moved_up_at is not None
    assert registration.registration_state(made[9]) == (Registration.State.WAITING, 1)
    assert registration.registration_state(made[1]) == (Registration.State.WITHDRAWN, None)
    assert event.entries.filter(withdrawn=False).count() == 8
    actions = list(event.audit.order_by("pk").values_list("action", flat=True))
    assert actions.count("registered") == 8 and actions[-1] == "moved_up"
    # Dan gives up his place on the list himself.
    registration.withdraw_registration(made[9])
    assert registration.registration_state(made[9]) == (Registration.State.LEFT, None)
    assert not WaitingPlace.objects.filter(event=event).exists()


def test_no_moving_up_once_the_first_game_is_drawn():
    event = _open(4)
    made = [registration.register_online(event, name=n) for n in NAMES[:5]]
    services.check_in_all(event)
    services.draw_next_game(event)
    services.withdraw_entry(made[0].entry)
    assert registration.registration_state(made[4]) == (Registration.State.WAITING, 1)


def test_a_returning_player_is_matched_by_name_and_duplicates_are_refused():
    event = _open(8)
    known = PlayerFactory(name="Jürgen Weiß", home_club=event.club)
    first = registration.register_online(event, name="jurgen  WEISS", email="j@example.org")
    assert first.player == known and first.email == "j@example.org"
    assert _codes(lambda: registration.register_online(event, name="Jürgen Weiß")) == (
        "already_registered"
    )
    assert _codes(lambda: registration.register_online(event, name="  ")) == "name_required"
    assert _codes(lambda: registration.register_online(event, name="A B", email="nope")) == (
        "bad_email"
    )
    assert _codes(lambda: registration.register_online(event, name="A B", phone="call me")) == (
        "bad_phone"
    )
    assert Registration.objects.filter(event=event).count() == 1


def test_the_cap_cannot_go_below_the_entrants_and_raising_it_moves_the_list_up():
    event = _open(3)
    made = [registration.register_online(event, name=n) for n in NAMES[:4]]
    code = _codes(lambda: registration.set_registration(event, registration_open=True, cap=2))
    assert code == "cap_below_entrants"
    assert registration.registration_state(made[3]) == (Registration.State.WAITING, 1)
    assert _codes(
        lambda: registration.set_registration(event, registration_open=True, cap=9999)
    ) == ("bad_cap")
    registration.set_registration(event, registration_open=True, cap=4)
    assert registration.registration_state(made[3])[0] == Registration.State.IN
    event = registration.set_registration(event, registration_open=False, cap=4)
    assert _codes(lambda: registration.register_online(event, name="Eve Late")) == (
        "registration_closed"
    )


def test_self_check_in_by_link_and_at_the_door_is_audited():
    event = event_with_field(4)
    Entry.objects.filter(event=event).update(checked_in=False)
    ann, bob, *_rest = event.entries.select_related("player").order_by("pk")
    door.self_check_in(ann, how=Entry.CheckIn.LINK)
    ann.refresh_from_db()
    assert ann.checked_in and ann.checked_in_how == Entry.CheckIn.LINK
    # Ann's phone then checks in Bob at the door: the log says so.
    door.self_check_in(bob, how=Entry.CheckIn.DOOR, by=ann)
    logged = door.self_check_ins(event)
    assert [row.new["how"] for row in logged] == ["door", "link"]
    assert logged[0].new["by"] == ann.player.name and ann.player.name in logged[0].reason
    # Closed by the TD, then by the first draw.
    services.door.set_door(event, closed=True)
    carl = event.entries.order_by("pk")[2]
    assert _codes(lambda: door.self_check_in(carl, how=Entry.CheckIn.DOOR)) == "door_closed"
    services.door.set_door(event, closed=False)
    services.draw_next_game(event)
    assert "first game" in door.door_refusal(event)
    assert _codes(lambda: door.self_check_in(carl, how=Entry.CheckIn.LINK)) == "door_closed"


def test_a_device_that_checks_in_a_second_player_is_named_from_the_log():
    """Issue 34, item 7: the device's label is in every self check-in's audit row, and the
    first player a device checked in is named beside the next ones (no session needed)."""
    event = event_with_field(3)
    Entry.objects.filter(event=event).update(checked_in=False)
    ann, bob, carl = event.entries.select_related("player").order_by("pk")
    door.self_check_in(ann, how=Entry.CheckIn.DOOR, device="aaaa1111")
    door.self_check_in(bob, how=Entry.CheckIn.DOOR, device="aaaa1111")
    door.self_check_in(carl, how=Entry.CheckIn.LINK, device="bbbb2222")
    ann_row, bob_row, carl_row = reversed(door.self_check_ins(event))
    assert (ann_row.new["device"], bob_row.new["device"]) == ("aaaa1111", "aaaa1111")
    assert "by" not in ann_row.new and bob_row.new["by"] == ann.player.name
    assert bob_row.actor == ann.player.name and ann.player.name in bob_row.reason
    assert carl_row.new == {"player": carl.name, "how": "link", "device": "bbbb2222"}


def test_entry_tokens_name_an_entry_of_one_event_and_one_door_qr():
    event, other = event_with_field(2), event_with_field(2)
    entry = event.entries.order_by("pk").first()
    token = door.entry_token(event, entry.pk)
    assert door.is_entry_token(token) and not token.isdigit()
    assert door.entry_for_token(event, token) == entry
    assert door.entry_for_token(other, token) is None
    assert door.entry_for_token(event, str(entry.pk)) is None
    event = door.set_door(event, rotate=True)
    assert door.entry_for_token(event, token) is None


def test_rotating_the_door_token_and_the_door_search():
    event = EventFactory()
    for name in NAMES[:4]:
        services.enter_player(event, PlayerFactory(name=name, home_club=event.club))
    token = event.door_token
    event = door.set_door(event, rotate=True)
    assert event.door_token != token and len(event.door_token) >= 16
    assert [e.player.name for e in door.door_candidates(event, "stefan")] == ["Ștefan Popescu"]
    assert [e.player.name for e in door.door_candidates(event, "LUCJA")] == ["Łucja Nowak"]
    assert door.door_candidates(event, "a") == []


def test_a_template_keeps_the_settings_and_the_fees():
    club = ClubMoneyFactory(entry_fee=Decimal(5)).club
    event = event_with_field(2, club=club, name="Thursday", games_planned=7, muggins=True)
    event = registration.set_registration(event, registration_open=True, cap=16)
    pool = SidePoolFactory(club=club, name="29 hand", fee=Decimal(1))
    money.set_event_fees(event, "7.50", {pool.pk: "2"})
    saved = templates.save_template(event, name=" Thursday  night ")
    assert saved.name == "Thursday night" and saved.settings["games_planned"] == 7
    assert saved.extras["money"] == {"entry_fee": "7.50", "pools": [[pool.pk, "2.00"]]}
    assert _codes(lambda: templates.save_template(event, name="Thursday night")) == (
        "template_name_taken"
    )
    when = datetime.date(2026, 12, 3)
    made = templates.event_from_template(saved, name="Thursday 3 Dec", date=when)
    assert (made.club, made.date, made.status) == (club, when, Event.Status.DRAFT)
    assert (made.games_planned, made.muggins, made.cap) == (7, True, 16)
    assert made.match_point_format == event.match_point_format
    assert EventFees.objects.get(event=made).entry_fee == Decimal("7.50")
    assert list(EventPool.objects.filter(event=made).values_list("pool_id", "fee")) == [
        (pool.pk, Decimal("2.00"))
    ]
    assert _codes(lambda: templates.event_from_template(saved, name="", date=when)) == (
        "name_required"
    )
    templates.delete_template(club, saved.pk)
    assert not EventTemplate.objects.filter(club=club).exists()


def test_a_partners_night_registers_teams_and_moves_a_waiting_team_up():
    """A kind played by teams of two registers both partners; a waiting team moves up with
    its partner when a team withdraws (it once blocked the withdrawal: a lone name waited
    and could not be entered)."""
    event = registration.set_registration(
        EventFactory(game="partners", pairing=Event.Pairing.SWISS), registration_open=True, cap=2
    )
    assert _codes(lambda: registration.register_online(event, name="Zoë Lindqvist")) == (
        "partner_required"
    )
    teams = [
        registration.register_online(event, name=a, partner_name=b)
        for a, b in (NAMES[0:2], NAMES[2:4], NAMES[4:6])
    ]
    assert [t.entry is not None for t in teams] == [True, True, False]
    assert teams[0].name == "Ștefan Popescu & Łucja Nowak"
    assert teams[0].entry.partner.name == "Łucja Nowak"
    assert registration.registration_state(teams[2]) == (Registration.State.WAITING, 1)
    # Either partner already in or waiting is refused, beside the field that names them.
    with pytest.raises(ServiceError) as exc:
        registration.register_online(event, name="Carla Rossi", partner_name="Bob Ng")
    assert (exc.value.code, exc.value.field) == ("already_registered", "partner")
    assert _codes(
        lambda: registration.register_online(event, name="Carla Rossi", partner_name="carla rossi")
    ) in ("same_player", "already_registered")
    services.withdraw_entry(teams[1].entry)
    teams[2].refresh_from_db()
    assert registration.registration_state(teams[2]) == (Registration.State.IN, None)
    assert teams[2].entry.name == "Ann Whitfield & Bob Ng"
    assert event.entries.filter(withdrawn=False).count() == 2
    actions = list(event.audit.order_by("pk").values_list("action", "new"))
    assert actions[-1] == ("moved_up", {"player": "Ann Whitfield & Bob Ng"})
    # A partner where players play alone is refused.
    solo = _open(8)
    with pytest.raises(ServiceError) as exc:
        registration.register_online(solo, name="Carla Rossi", partner_name="Dan Mills")
    assert (exc.value.code, exc.value.field) == ("not_team_game", "partner")
    assert not solo.registrations.exists()


def test_a_waiting_player_the_td_enters_leaves_the_list_and_is_in():
    event = _open(2)
    made = [registration.register_online(event, name=n) for n in NAMES[:5]]
    assert list(
        event.waiting_list.order_by("position").values_list(
            "registration__player__name", "position"
        )
    ) == [("Jürgen Weiß", 1), ("Niccolò Bianchi", 2), ("Ann Whitfield", 3)]
    # Niccolò (second on the list) turns up at the door and the TD lets him in past the cap,
    # saying he is the one who registered (asked first: the same name is not the same person).
    with pytest.raises(ServiceError) as asked:
        services.enter_player(event, made[3].player, checked_in=True)
    assert asked.value.code == "waiting_registration" and asked.value.field == "same_as_waiting"
    entry = services.enter_player(event, made[3].player, checked_in=True, same_as_waiting=True)
    made[3].refresh_from_db()
    assert made[3].entry == entry and made[3].moved_up_at is None  # no place came free
    assert registration.registration_state(made[3]) == (Registration.State.IN, None)
    assert list(
        event.waiting_list.order_by("position").values_list(
            "registration__player__name", "position"
        )
    ) == [("Jürgen Weiß", 1), ("Ann Whitfield", 2)]
    assert event.audit.order_by("pk").last().action == "entered_from_waiting_list"
    # A withdrawal before the draw hands the place on only while below the cap (3 > 2).
    services.withdraw_entry(made[0].entry)
    assert event.waiting_list.count() == 2


def test_a_strangers_registration_never_acts_for_the_member_the_td_enters():
    """Issue 34, item 6: a stranger registered with a member's name while the event was
    full; when the TD entered the real member, the stranger's link took the entry over (its
    "I can't come" withdrew the member, its "I'm here" checked them in)."""
    event = _open(2)
    made = [registration.register_online(event, name=n) for n in NAMES[:3]]
    stranger = made[2]  # waiting, under the member's name
    assert registration.registration_state(stranger) == (Registration.State.WAITING, 1)
    member = stranger.player
    entry = services.enter_player(event, member, checked_in=True, same_as_waiting=False)
    stranger.refresh_from_db()
    assert stranger.entry is None and not event.waiting_list.exists()
    assert registration.registration_state(stranger)[0] == Registration.State.LEFT
    assert event.audit.order_by("pk").last().action == "registration_set_aside"
    with pytest.raises(ServiceError) as refused:  # the link's "I can't come"
        registration.withdraw_registration(stranger)
    assert refused.value.code == "not_waiting"
    entry.refresh_from_db()
    assert not entry.withdrawn and entry.checked_in


def test_a_place_that_comes_free_never_hands_a_stranger_the_members_entry():
    """A registration moved up when a place comes free takes only an entry it made: the
    member the TD entered under the same name stays theirs."""
    event = _open(2)
    made = [registration.register_online(event, name=n) for n in NAMES[:3]]
    waiting = made[2]
    # The TD enters the member (someone else), then raises the cap: the waiting list moves.
    entry = services.enter_player(event, waiting.player, same_as_waiting=False)
    registration.set_registration(event, registration_open=True, cap=5)
    waiting.refresh_from_db()
    assert waiting.entry is None
    assert registration.registration_state(waiting)[0] == Registration.State.LEFT
    assert Entry.objects.get(pk=entry.pk).player == waiting.player
