"""The game-kind registry: a kind registered by a test runs a whole short event through the
same services, standings job and pages as cribbage and Stoppa, with no change to them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError
from scoring.selectors import standings_for_event
from scoring.services import recompute_standings
from tests.factories import EventFactory
from tournaments import kinds, services
from tournaments.kinds.base import Messages
from tournaments.kinds.cribbage import Cribbage
from tournaments.models import Event, Round, Table

pytestmark = pytest.mark.django_db


class KingOfTheHill(Cribbage):
    """A made-up kind: two-player tables (cribbage's storage), seated by entry order each
    hand (1 v 2, 3 v 4, the last sits out on a bye), ranked by games won then spread."""

    key = "king_of_the_hill"
    label = _("King of the hill")
    default_chain = ("games_won", "spread")
    tiebreakers = frozenset({"games_won", "spread", "draw"})
    playoffs = False
    seasons = False
    messages = Messages(
        round_n=_("Hand %(n)s"),
        all_drawn=_("All %(n)s hands have been dealt."),
        previous_draft=_("Hand %(n)s is still a draft."),
        previous_open=_("Hand %(n)s still has open tables: %(tables)s."),
        has_results=_("Hand %(n)s already has results."),
        already_released=_("Hand %(n)s is already released."),
        released=_("Hand %(n)s is released."),
        field_changed=_("The field changed since hand %(n)s was drafted."),
        not_latest=_("Only the latest hand can be dealt again."),
        too_few=_("At least %(n)s players are needed."),
    )

    def draw(self, event: Event, number: int, *, draft: bool) -> Round:
        field = list(
            event.entries.filter(checked_in=True, withdrawn=False)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if len(field) < 2:
            raise ServiceError("too_few_players", str(self.messages.too_few) % {"n": 2})
        round_ = Round.objects.create(
            event=event,
            number=number,
            seed=0,
            method="hill",
            status=Round.Status.DRAFT if draft else Round.Status.RELEASED,
        )
        pairs = [field[i : i + 2] for i in range(0, len(field), 2)]
        for table_number, pair in enumerate(pairs, start=1):
            if len(pair) == 2:
                Table.objects.create(
                    round=round_, number=table_number, seat_a_id=pair[0], seat_b_id=pair[1]
                )
            else:
                Table.objects.create(round=round_, seat_a_id=pair[0])
        return round_


@pytest.fixture
def hill():
    kind = kinds.register(KingOfTheHill())
    yield kind
    kinds.unregister(kind.key)


def test_a_registered_kind_runs_a_short_event_through_the_usual_services(
    hill, td_user, client, django_capture_on_commit_callbacks
):
    event = EventFactory(game=hill.key, games_planned=2, name="Hill night")
    event.full_clean()  # the registry feeds the field's choices: no migration for a new kind
    event.club.directors.add(td_user)
    for name in ("Ann", "Bob", "Cal", "Dee"):
        services.register_player(event, name=name)
    assert event.game_kind is hill and event.ranking_chain == ("games_won", "spread")

    with django_capture_on_commit_callbacks(execute=True):
        first = services.draw_next_game(event)
        seats = [(t.seat_a.player.name, t.seat_b.player.name) for t in first.tables.all()]
        assert seats == [("Ann", "Bob"), ("Cal", "Dee")]
        for table, loser_score in zip(first.tables.all(), (100, 60), strict=True):
            services.record_result(event, table=table, winner=table.seat_b, loser_score=loser_score)
    rows = [(r.entry.player.name, r.games_won, r.spread) for r in standings_for_event(event.pk)]
    assert rows == [("Dee", 1, 61), ("Bob", 1, 21), ("Ann", 0, -21), ("Cal", 0, -61)]

    # The kind's rules and words, asked of the registry by the shared services.
    with pytest.raises(ServiceError) as caught:
        services.set_ranking_chain(event, ["head_to_head"])
    assert caught.value.code == "bad_ranking_chain"

    second = services.draw_next_game(event)
    for table in second.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "all_games_drawn" and "2 hands" in caught.value.message
    services.finish_event(event)
    # The test transaction never commits, so the job queued above runs here, as it would
    # after the commit.
    recompute_standings(event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Everyone won once: spread decides (Dee +30, Ann +10, Bob -10, Cal -30).
    assert [r.entry.player.name for r in standings_for_event(event.pk)] == [
        "Dee",
        "Ann",
        "Bob",
        "Cal",
    ]

    client.force_login(td_user)
    page = client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert "Hand 1" in page and "Hand 2" in page and "Cut to the playoff" not in page
    public = client.get(reverse("event", args=[event.pk]))
    assert public.status_code == 200 and "Dee" in public.content.decode()


def test_kinds_refuse_each_others_tiebreakers():
    cribbage, stoppa = kinds.get("cribbage"), kinds.get("stoppa")
    assert cribbage.validate_chain(["game_points", "head_to_head"])
    with pytest.raises(ValueError, match="Unknown tiebreaker 'chips'"):
        cribbage.validate_chain(["chips"])
    with pytest.raises(ValueError, match="Unknown tiebreaker 'head_to_head'"):
        stoppa.validate_chain(["chips", "head_to_head"])
    kinds.register(first := KingOfTheHill())
    try:
        with pytest.raises(ValueError, match="already registered"):
            kinds.register(KingOfTheHill())
        assert kinds.register(first) is first  # registering the same object again is harmless
    finally:
        kinds.unregister(KingOfTheHill.key)


def test_a_stoppa_event_cannot_take_a_cribbage_chain():
    event = EventFactory(game="stoppa")
    with pytest.raises(ServiceError) as caught:
        services.set_ranking_chain(event, ["game_points", "head_to_head"])
    assert caught.value.code == "bad_ranking_chain"
    event.refresh_from_db()
    assert event.ranking_chain == ("chips", "sessions_won", "best_session")
