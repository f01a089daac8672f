"""Writes for events: entries, check-in, drawing games, recording results.

Every function here is one transaction: it either changes everything it says or nothing, and
it raises :class:`pegboard.errors.ServiceError` with a named code for input the rules reject.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from tournaments.outcome import OutcomeError, game_outcome

from . import hooks, pairing, tiebreakers
from . import pairing_bridge as bridge
from .models import (
    Bracket,
    Entry,
    Event,
    ForbiddenPair,
    GameResult,
    MatchPointFormat,
    Player,
    PlayoffGame,
    PlayoffMatch,
    Round,
    Table,
)

UserLike = AbstractBaseUser | AnonymousUser | None


def _locked_event(event: Event) -> Event:
    """Re-read the event under a row lock so concurrent TD actions on it run one at a time."""
    return Event.objects.select_for_update().select_related("match_point_format").get(pk=event.pk)


@transaction.atomic
def enter_player(event: Event, player: Player, *, checked_in: bool = False) -> Entry:
    """Enter ``player`` in ``event`` (a late entry joins at the next game drawn)."""
    event = _locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished; no more entries."))
    entry, created = Entry.objects.get_or_create(
        event=event, player=player, defaults={"checked_in": checked_in}
    )
    if not created:
        raise ServiceError(
            "already_entered",
            _("%(name)s is already entered.") % {"name": player.name},
            field="name",
        )
    return entry


@transaction.atomic
def register_player(
    event: Event,
    *,
    name: str,
    acc_number: str = "",
    status: str = Player.Status.MEMBER,
    checked_in: bool = True,
) -> Entry:
    """Find or create a player by ACC number (else by name in the club) and enter them."""
    name = " ".join(name.split())
    acc_number = acc_number.strip()
    if not name:
        raise ServiceError("name_required", _("A player needs a name."), field="name")
    if status not in Player.Status.values:
        raise ServiceError("bad_status", _("Unknown player status."), field="status")
    player = None
    if acc_number:
        player = Player.objects.filter(acc_number=acc_number).first()
        if player is not None and player.name.casefold() != name.casefold():
            raise ServiceError(
                "acc_number_taken",
                _("ACC number %(number)s belongs to %(name)s.")
                % {"number": acc_number, "name": player.name},
                field="acc_number",
            )
    if player is None:
        player = (
            Player.objects.filter(name__iexact=name, home_club=event.club).first()
            if not acc_number
            else None
        )
    if player is None:
        player = Player.objects.create(
            name=name,
            acc_number=acc_number,
            status=status,
            home_club=event.club if status == Player.Status.MEMBER else None,
        )
    return enter_player(event, player, checked_in=checked_in)


@transaction.atomic
def set_checked_in(entry: Entry, checked_in: bool) -> Entry:
    """Mark an entry present (or not) for the next draw."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.withdrawn and checked_in:
        raise ServiceError("withdrawn", _("%(name)s has withdrawn.") % {"name": entry.player.name})
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    return entry


@transaction.atomic
def withdraw_entry(entry: Entry) -> Entry:
    """Withdraw an entry from later games; games already played stand.

    A draft game that seats them is drawn again without them, and in a playoff their open
    match (and any they would reach) becomes a walkover for the opponent.
    """
    event = _locked_event(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, event=event)
    entry.withdrawn = True
    entry.checked_in = False
    entry.save(update_fields=["withdrawn", "checked_in"])
    latest = event.rounds.order_by("-number").first()
    if event.game == Event.Game.STOPPA:
        from . import services_stoppa

        services_stoppa.redraw_draft_without(event, entry)
    elif latest is not None and latest.is_draft:
        seats_them = latest.tables.filter(models.Q(seat_a=entry) | models.Q(seat_b=entry)).exists()
        if seats_them:
            number = latest.number
            latest.delete()
            try:
                with transaction.atomic():
                    _draw(event, number, draft=True)
            except ServiceError:
                pass  # the field left cannot be seated now: the TD draws again when it can
    bracket = Bracket.objects.select_for_update().filter(event=event).first()
    if bracket is not None and entry.pk in bracket.seeds:
        bridge.save_bracket(bracket, bridge.pure_bracket(bracket))
    hooks.results_changed(entry.event_id)
    return entry


def _open_tables(round_: Round) -> list[Table]:
    return list(round_.tables.filter(result__isnull=True).order_by("number"))


def _next_number(event: Event) -> int:
    last = event.rounds.order_by("-number").first()
    number = 1 if last is None else last.number + 1
    if number > event.games_planned:
        raise ServiceError(
            "all_games_drawn",
            _("All %(n)s games of this event have been drawn.") % {"n": event.games_planned},
        )
    if last is not None:
        if last.is_draft:
            raise ServiceError(
                "previous_game_draft",
                _("Game %(game)s is still a draft: release it or draw it again first.")
                % {"game": last.number},
            )
        open_tables = _open_tables(last)
        if open_tables:
            raise ServiceError(
                "previous_game_open",
                _("Game %(game)s still has open tables: %(tables)s.")
                % {"game": last.number, "tables": ", ".join(str(t.number) for t in open_tables)},
            )
    return number


def _draw(event: Event, number: int, *, draft: bool) -> Round:
    """Seat game ``number`` by the event's pairing method and write it (the bridge's job)."""
    active = bridge.active_entries(event)
    if len(active) < 2:
        raise ServiceError("too_few_players", _("At least two checked-in players are needed."))
    history = bridge.load_history(event)
    seed = (event.seed * 1_000_003 + number) % (2**31)
    seating = bridge.seat_game(event, number, [e.pk for e in active], seed, history)
    round_ = bridge.write_round(
        event, number=number, seed=seed, seating=seating, history=history, draft=draft
    )
    if not draft and bridge.score_byes(round_):
        hooks.results_changed(event.pk)
    if event.status == Event.Status.DRAFT:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return round_


@transaction.atomic
def draw_next_game(event: Event, *, draft: bool = False) -> Round:
    """Seat the next game for the checked-in, active entries, by the event's pairing method.

    The first draw starts a draft event. The previous game must be released and complete.
    With ``draft`` the seating is the TD's to check, swap and draw again before
    :func:`release_game` shows it to the players; without it the game is released at once (a
    club night's usual flow). The draw is reproducible: its seed is stored on the game.
    """
    if event.game == Event.Game.STOPPA:
        from . import services_stoppa

        return services_stoppa.draw_session(event, draft=draft)
    event = _locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    return _draw(event, _next_number(event), draft=draft)


@transaction.atomic
def redraw_game(round_: Round) -> Round:
    """Throw away the latest game's seating and draw it again (a draft stays a draft).

    Refused once the game has a played result: a released game with results is never redrawn.
    """
    if round_.event.game == Event.Game.STOPPA:
        from . import services_stoppa

        return services_stoppa.redraw_session(round_)
    event = _locked_event(round_.event)
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.pk != round_.pk:
        raise ServiceError("not_latest_game", _("Only the latest game can be drawn again."))
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    if GameResult.objects.filter(table__round=latest).exclude(kind=GameResult.Kind.BYE).exists():
        raise ServiceError(
            "game_has_results", _("Game %(n)s already has results.") % {"n": latest.number}
        )
    draft, number = latest.is_draft, latest.number
    latest.delete()
    hooks.results_changed(event.pk)
    return _draw(event, number, draft=draft)


@transaction.atomic
def release_game(round_: Round) -> Round:
    """Show a draft game to the players: results can be entered, byes are scored.

    Refused when the draft seats a withdrawn or absent player or leaves an active one out
    (draw it again or swap seats first).
    """
    if round_.event.game == Event.Game.STOPPA:
        from . import services_stoppa

        return services_stoppa.release_session(round_)
    event = _locked_event(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk, event=event)
    if not round_.is_draft:
        raise ServiceError(
            "already_released", _("Game %(n)s is already released.") % {"n": round_.number}
        )
    seated = {pk for pair in round_.tables.values_list("seat_a_id", "seat_b_id") for pk in pair}
    seated.discard(None)
    active = {e.pk for e in bridge.active_entries(event)}
    if seated != active:
        raise ServiceError(
            "draft_field_changed",
            _(
                "The field changed since game %(n)s was drafted (a late entry, a withdrawal or "
                "a check-out): draw it again before releasing it."
            )
            % {"n": round_.number},
        )
    round_.status = Round.Status.RELEASED
    round_.released_at = timezone.now()
    round_.save(update_fields=["status", "released_at"])
    if bridge.score_byes(round_):
        hooks.results_changed(event.pk)
    return round_


@transaction.atomic
def swap_seats(
    round_: Round, player_a: Entry | int, player_b: Entry | int, *, confirm: bool = False
) -> tuple[Round, list[str]]:
    """Swap two seats of a draft game by hand; returns the game and what the swap breaks.

    A swap that breaks nothing is applied at once. One that seats a repeat, a forbidden pair or
    an unfair bye is refused with code ``swap_needs_confirmation`` (the problems in the
    message) unless ``confirm`` is given; the problems are then kept as the game's notes.
    """
    event = _locked_event(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk, event=event)
    if not round_.is_draft:
        raise ServiceError(
            "round_released",
            _("Game %(n)s is released: seats can only be swapped in a draft.")
            % {"n": round_.number},
        )
    a = player_a.pk if isinstance(player_a, Entry) else player_a
    b = player_b.pk if isinstance(player_b, Entry) else player_b
    if not event.entries.filter(pk__in=[a, b]).count() == len({a, b}):
        raise ServiceError("unknown_player", _("Choose two players of this event."), "player_a")
    seating, problems = bridge.swap_in_round(round_, a, b)
    if problems and not confirm:
        raise ServiceError(
            "swap_needs_confirmation",
            _("This swap breaks the rules: %(problems)s Confirm to swap anyway.")
            % {"problems": " ".join(problems)},
            field="confirm",
        )
    bridge.rewrite_tables(round_, seating, problems)
    return round_, problems


@transaction.atomic
def add_forbidden_pair(
    event: Event, entry_a: Entry | int, entry_b: Entry | int, *, reason: str = ""
) -> ForbiddenPair:
    """Never seat these two entries together (family, partners) from the next draw on."""
    event = _locked_event(event)
    ids = [e.pk if isinstance(e, Entry) else e for e in (entry_a, entry_b)]
    if ids[0] == ids[1]:
        raise ServiceError(
            "same_player", _("A forbidden pair needs two different players."), field="entry_b"
        )
    if event.entries.filter(pk__in=ids).count() != 2:
        raise ServiceError(
            "unknown_player", _("Both players must be entered in this event."), field="entry_a"
        )
    low, high = sorted(ids)
    pair, created = ForbiddenPair.objects.get_or_create(
        event=event, entry_a_id=low, entry_b_id=high, defaults={"reason": reason.strip()[:120]}
    )
    if not created:
        raise ServiceError(
            "already_forbidden", _("These two are already a forbidden pair."), field="entry_b"
        )
    return pair


@transaction.atomic
def remove_forbidden_pair(event: Event, pair_id: int) -> None:
    """Lift a forbidden pair (from the next draw on)."""
    event = _locked_event(event)
    deleted, _rows = ForbiddenPair.objects.filter(event=event, pk=pair_id).delete()
    if not deleted:
        raise ServiceError("unknown_pair", _("There is no such forbidden pair."))


@transaction.atomic
def set_event_format(
    event: Event,
    *,
    kind: str,
    pairing: str,
    meetings_per_opponent: int,
    games_planned: int,
) -> Event:
    """Set the kind of event, the pairing method, games per opponent and the number of games."""
    event = _locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    if kind not in Event.Kind.values:
        raise ServiceError("bad_kind", _("Unknown kind of event."), field="kind")
    if pairing not in Event.Pairing.values:
        raise ServiceError("bad_pairing", _("Unknown pairing method."), field="pairing")
    if meetings_per_opponent not in (1, 2):
        raise ServiceError(
            "bad_meeting_limit",
            _("Players meet once or twice per event."),
            field="meetings_per_opponent",
        )
    drawn = event.rounds.count()
    if not max(1, drawn) <= games_planned <= 40:
        raise ServiceError(
            "bad_games_planned",
            _("The number of games must be between %(low)s and 40.") % {"low": max(1, drawn)},
            field="games_planned",
        )
    event.kind, event.pairing = kind, pairing
    event.meetings_per_opponent, event.games_planned = meetings_per_opponent, games_planned
    event.save(update_fields=["kind", "pairing", "meetings_per_opponent", "games_planned"])
    return event


@transaction.atomic
def record_result(
    event: Event,
    *,
    table: Table | int,
    winner: Entry | int,
    loser_score: int | None = None,
    forfeit: bool = False,
    game_number: int | None = None,
    user: UserLike = None,
) -> GameResult:
    """Record (or replace) the result of a table: the winner and the loser's score.

    With ``forfeit`` the winner is awarded the format's forfeit win (2 game points, +10 in
    ACC play) and no score is taken. Game points, spread and skunk level are derived here.
    ``game_number``, when given, is the game the TD is entering results for: a table of
    another game is refused.
    """
    event = _locked_event(event)
    table_id = table.pk if isinstance(table, Table) else table
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    try:
        table = (
            Table.objects.select_for_update(of=("self",))
            .select_related("round", "seat_a__player", "seat_b__player")
            .get(pk=table_id, round__event=event)
        )
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ServiceError(
            "unknown_table", _("There is no such table in this event."), field="table"
        ) from None
    if game_number is not None and table.round.number != game_number:
        raise ServiceError(
            "table_of_another_game",
            _("Table %(table)s belongs to game %(other)s, not game %(game)s.")
            % {"table": table.number or "-", "other": table.round.number, "game": game_number},
            field="table",
        )
    if event.status != Event.Status.RUNNING:
        raise ServiceError(
            "event_not_running", _("Results can only be entered while the event is running.")
        )
    if table.round.is_draft:
        raise ServiceError(
            "round_not_released",
            _("Game %(game)s is a draft: release it before entering results.")
            % {"game": table.round.number},
            field="table",
        )
    if table.is_bye:
        raise ServiceError("bye_table", _("A bye has no result to enter."), field="table")
    seats = {table.seat_a_id: table.seat_a, table.seat_b_id: table.seat_b}
    if winner_id not in seats:
        name = (
            Entry.objects.filter(pk=winner_id, event=event)
            .values_list("player__name", flat=True)
            .first()
        )
        raise ServiceError(
            "winner_not_at_table",
            _("%(name)s is not at table %(table)s.")
            % {"name": name or _("That player"), "table": table.number},
            field="winner",
        )
    loser_id = next(pk for pk in seats if pk != winner_id)
    fmt = event.match_point_format
    if forfeit:
        kind, loser_score_value = GameResult.Kind.FORFEIT, None
        winner_points, margin, skunk = fmt.forfeit_points, fmt.forfeit_spread, 0
    else:
        if loser_score is None:
            raise ServiceError("score_required", _("Enter the loser's score."), field="loser_score")
        try:
            outcome = game_outcome(fmt, event.target, loser_score)
        except OutcomeError as exc:
            raise ServiceError(exc.code, exc.message, field="loser_score") from None
        kind, loser_score_value = GameResult.Kind.PLAYED, loser_score
        winner_points, margin, skunk = outcome.winner_points, outcome.margin, outcome.skunk_level

    values = {
        "kind": kind,
        "winner_id": winner_id,
        "loser_id": loser_id,
        "loser_score": loser_score_value,
        "winner_points": winner_points,
        "loser_points": 0,
        "margin": margin,
        "skunk_level": skunk,
        "entered_by": user if getattr(user, "is_authenticated", False) else None,
    }
    try:
        result, _created = GameResult.objects.update_or_create(table=table, defaults=values)
    except IntegrityError:
        raise ServiceError("conflict", _("The result could not be saved; try again.")) from None
    hooks.results_changed(event.pk)
    return result


@transaction.atomic
def finish_event(event: Event) -> Event:
    """Close the event once every drawn game is complete."""
    event = _locked_event(event)
    last = event.rounds.order_by("-number").first()
    if last is not None and last.is_draft:
        raise ServiceError(
            "previous_game_draft",
            _("Game %(game)s is still a draft: release it or draw it again first.")
            % {"game": last.number},
        )
    if last is not None and event.game == Event.Game.STOPPA:
        from . import services_stoppa

        if services_stoppa.open_tables(last):
            raise ServiceError("previous_game_open", _("Some tables still have no result."))
    elif last is not None and _open_tables(last):
        raise ServiceError("previous_game_open", _("Some tables still have no result."))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    hooks.results_changed(event.pk)
    return event


@transaction.atomic
def set_standings_published(event: Event, published: bool) -> Event:
    """Show or hide the standings on the public pages (the TD always sees them)."""
    event = _locked_event(event)
    event.standings_published = published
    event.save(update_fields=["standings_published"])
    return event


@transaction.atomic
def set_ranking_chain(event: Event, keys: list[str]) -> Event:
    """Set the event's tiebreakers, in order, and re-rank its standings."""
    event = _locked_event(event)
    try:
        event.tiebreakers = list(tiebreakers.validate_chain(k.strip() for k in keys if k.strip()))
    except ValueError as exc:
        raise ServiceError("bad_ranking_chain", str(exc), field="tiebreakers") from None
    event.save(update_fields=["tiebreakers"])
    hooks.results_changed(event.pk)
    return event


@transaction.atomic
def record_no_show(
    event: Event, *, table: Table | int, absent: Entry | int, withdraw: bool = False, user=None
) -> GameResult:
    """A player did not come to their table: the opponent wins by forfeit (Rule 11.4b: 2 game
    points, +10; the absent player -10). With ``withdraw`` the absent player is also withdrawn
    from later games."""
    event = _locked_event(event)
    table_id = table.pk if isinstance(table, Table) else table
    absent_id = absent.pk if isinstance(absent, Entry) else absent
    row = Table.objects.filter(pk=table_id, round__event=event).first()
    if row is None:
        raise ServiceError(
            "unknown_table", _("There is no such table in this event."), field="table"
        )
    if row.is_bye:
        raise ServiceError("bye_table", _("A bye has no result to enter."), field="table")
    if absent_id not in (row.seat_a_id, row.seat_b_id):
        raise ServiceError(
            "not_at_table",
            _("That player is not at table %(table)s.") % {"table": row.number},
            field="absent",
        )
    opponent = row.seat_b_id if absent_id == row.seat_a_id else row.seat_a_id
    result = record_result(event, table=row, winner=opponent, forfeit=True, user=user)
    if withdraw:
        withdraw_entry(Entry.objects.get(pk=absent_id))
    return result


# --- Playoffs ------------------------------------------------------------------------------------

_PLAYOFF_FIELDS = {
    "bad_best_of": "best_of",
    "too_many_qualifiers": "qualifiers",
    "too_few_qualifiers": "qualifiers",
    "too_few_players": "qualifiers",
    "bad_options": "double_elimination",
    "bracket_too_small": "third_place",
}


def _qualifying_seeds(event: Event, qualifiers: int | None) -> tuple[list[int], int]:
    """The qualifiers in seed order from the event's standings, and the number of entrants."""
    last = event.rounds.order_by("-number").first()
    if last is None:
        raise ServiceError(
            "no_qualifying",
            _("No qualifying game has been played: draw the bracket at random instead."),
            field="source",
        )
    if last.is_draft or _open_tables(last):
        raise ServiceError(
            "qualifying_open",
            _("Game %(game)s is not complete: the cut waits for every qualifying result.")
            % {"game": last.number},
        )
    # The cut reads every committed result, not a standings table a job may still rebuild.
    rows = [(row.entry_id, row.withdrawn) for row in hooks.current_ranking(event.pk)]
    try:
        plan = pairing.plan_playoff(len(rows), qualifiers)
    except pairing.PairingError as exc:
        raise bridge.service_error(exc, field="qualifiers") from None
    # A withdrawn player cannot play on: the next in the ranking takes the place.
    ranking = [pk for pk, withdrawn in rows if not withdrawn]
    if len(ranking) < plan.qualifiers:
        raise ServiceError(
            "too_many_qualifiers",
            _("Only %(n)s players are still in the event.") % {"n": len(ranking)},
            field="qualifiers",
        )
    return ranking[: plan.qualifiers], len(rows)


def _ranking_of(event: Event, ranking_event: Event | None) -> list[int]:
    """This event's entries in the order of another event's standings (a named ranking)."""
    if ranking_event is None:
        return []
    by_player = dict(event.entries.values_list("player_id", "pk"))
    player_of = dict(ranking_event.entries.values_list("pk", "player_id"))
    order = [player_of[row.entry_id] for row in hooks.current_ranking(ranking_event.pk)]
    return [by_player[p] for p in order if p in by_player]


@transaction.atomic
def create_playoff(
    event: Event,
    *,
    source: str | None = None,
    qualifiers: int | None = None,
    best_of: Sequence[int] = (3,),
    side_best_of: int | None = None,
    third_place: bool = False,
    consolation: bool = False,
    double_elimination: bool = False,
    ranking_event: Event | None = None,
) -> Bracket:
    """The playoff of an event: the cut from its qualifying ranking, or a random draw.

    ``source="qualifying"`` (the default once games were played) takes ceil(entrants / 4)
    qualifiers (or ``qualifiers``) from the standings, seeded by rank, byes to the top seeds.
    ``source="draw"`` (playoff-only and internet-style events) draws the checked-in field into
    round one at random from a stored seed; byes go to the entrants highest in the standings
    of ``ranking_event`` (a named ranking), if given. Options as in
    :func:`tournaments.pairing.build_bracket`.
    """
    event = _locked_event(event)
    if Bracket.objects.filter(event=event).exists():
        raise ServiceError("playoff_exists", _("This event already has its playoff."))
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    if source is None:
        source = Bracket.Source.QUALIFYING if event.rounds.exists() else Bracket.Source.DRAW
    if source not in Bracket.Source.values:
        raise ServiceError("bad_source", _("Unknown way to seed the playoff."), field="source")
    if ranking_event is not None and ranking_event.club_id != event.club_id:
        raise ServiceError(
            "unknown_ranking", _("Choose a ranking of this club."), field="ranking_event"
        )
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.is_draft:
        raise ServiceError(
            "previous_game_draft",
            _("Game %(game)s is still a draft: release it or draw it again first.")
            % {"game": latest.number},
        )
    bracket = Bracket(
        event=event,
        source=source,
        best_of=[int(n) for n in best_of],
        side_best_of=side_best_of,
        third_place=third_place,
        consolation=consolation,
        double_elimination=double_elimination,
        ranking_event=ranking_event,
    )
    if event.kind != Event.Kind.CLUB_NIGHT:
        bracket.seed = (event.seed * 7_919 + 1) % (2**31)
    try:
        if source == Bracket.Source.QUALIFYING:
            bracket.seeds, bracket.entrants = _qualifying_seeds(event, qualifiers)
            pure = pairing.build_bracket(bracket.seeds, **bridge.bracket_options(bracket))
        else:
            players = [e.pk for e in bridge.active_entries(event)]
            if qualifiers is not None and qualifiers != len(players):
                raise ServiceError(
                    "bad_qualifiers",
                    _("A drawn bracket takes every checked-in player (%(n)s).")
                    % {"n": len(players)},
                    field="qualifiers",
                )
            pure = pairing.draw_playoff(
                players,
                seed=bracket.seed,
                ranking=_ranking_of(event, ranking_event),
                **bridge.bracket_options(bracket),
            )
            bracket.seeds, bracket.entrants = list(pure.seeds), len(players)
    except pairing.PairingError as exc:
        raise bridge.service_error(exc, field=_PLAYOFF_FIELDS.get(exc.code)) from None
    bracket.save()
    bridge.save_bracket(bracket, pure)
    if event.status == Event.Status.DRAFT:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return bracket


def _locked_match(event: Event, match: PlayoffMatch | str) -> tuple[Bracket, PlayoffMatch]:
    bracket = Bracket.objects.select_for_update().filter(event=event).first()
    if bracket is None:
        raise ServiceError("no_playoff", _("This event has no playoff yet."))
    code = match.code if isinstance(match, PlayoffMatch) else str(match)
    row = bracket.matches.select_for_update().filter(code=code).first()
    if row is None:
        raise ServiceError(
            "unknown_match", _("There is no match %(code)s.") % {"code": code}, field="match"
        )
    return bracket, row


@transaction.atomic
def record_playoff_game(
    event: Event,
    *,
    match: PlayoffMatch | str,
    winner: Entry | int,
    loser_score: int | None = None,
    forfeit: bool = False,
    user: UserLike = None,
) -> PlayoffGame:
    """Record one game of a playoff match; a decided match sends its players on at once.

    With ``forfeit`` the game is forfeited by the other player (Rule 13.1: a player not at the
    table forfeits the first game after 5 minutes, then one more every 15 minutes, so the TD
    records one forfeit each time until the match is decided). Playoff games never change the
    qualifying standings.
    """
    event = _locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    bracket, row = _locked_match(event, match)
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    if row.decided:
        raise ServiceError(
            "match_decided", _("Match %(code)s is already decided.") % {"code": row.code}
        )
    if not row.ready:
        raise ServiceError(
            "match_not_ready",
            _("Match %(code)s is still waiting for a player.") % {"code": row.code},
        )
    if winner_id not in (row.seat_a_id, row.seat_b_id):
        raise ServiceError(
            "winner_not_in_match",
            _("That player is not playing in match %(code)s.") % {"code": row.code},
            field="winner",
        )
    if forfeit:
        loser_score = None
    elif loser_score is None:
        raise ServiceError("score_required", _("Enter the loser's score."), field="loser_score")
    else:
        try:
            game_outcome(event.match_point_format, event.target, loser_score)
        except OutcomeError as exc:
            raise ServiceError(exc.code, exc.message, field="loser_score") from None
    pure = bridge.pure_bracket(bracket)
    try:
        pure = pairing.record_game(pure, row.code, winner_id)
    except pairing.PairingError as exc:
        raise bridge.service_error(exc, field="winner") from None
    game = PlayoffGame.objects.create(
        match=row,
        number=row.games.count() + 1,
        winner_id=winner_id,
        loser_score=loser_score,
        forfeit=forfeit,
        entered_by=user if getattr(user, "is_authenticated", False) else None,
    )
    bridge.save_bracket(bracket, pure)
    return game


@transaction.atomic
def undo_playoff_game(event: Event, *, match: PlayoffMatch | str) -> None:
    """Remove the last game of a match (a mistyped winner), while no later match has a game."""
    event = _locked_event(event)
    bracket, row = _locked_match(event, match)
    last = row.games.order_by("-number").first()
    if last is None:
        raise ServiceError("no_games", _("Match %(code)s has no game yet.") % {"code": row.code})
    if row.decided:
        later = [t.split(":")[0] for t in (row.winner_to, row.loser_to) if t]
        if PlayoffGame.objects.filter(match__bracket=bracket, match__code__in=later).exists():
            raise ServiceError(
                "later_games",
                _("The players of match %(code)s have already played on.") % {"code": row.code},
            )
    last.delete()
    bridge.save_bracket(bracket, bridge.pure_bracket(bracket))


@transaction.atomic
def create_consolation(event: Event, *, name: str = "", games_planned: int = 9) -> Event:
    """The consolation event: everyone of ``event`` who did not make its playoff (and has not
    withdrawn), entered and checked in, with its own qualifying games and its own playoff."""
    event = _locked_event(event)
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is None or bracket.source != Bracket.Source.QUALIFYING:
        raise ServiceError(
            "no_cut", _("The consolation is for those who missed the cut: make the cut first.")
        )
    if not 1 <= games_planned <= 40:
        raise ServiceError(
            "bad_games_planned", _("The number of games must be between 1 and 40."), "games_planned"
        )
    others = event.entries.filter(withdrawn=False).exclude(pk__in=bracket.seeds)
    consolation = Event.objects.create(
        club=event.club,
        name=name.strip() or _("%(event)s - consolation") % {"event": event.name},
        date=event.date,
        game=event.game,
        kind=Event.Kind.CONSOLATION,
        games_planned=games_planned,
        target=event.target,
        match_point_format=event.match_point_format,
        muggins=event.muggins,
        tiebreakers=event.tiebreakers,
        meetings_per_opponent=event.meetings_per_opponent,
    )
    Entry.objects.bulk_create(
        Entry(event=consolation, player_id=pk, checked_in=True)
        for pk in others.values_list("player_id", flat=True)
    )
    return consolation


@transaction.atomic
def copy_format(fmt, *, club=None):
    """A new, editable format with the same points as ``fmt`` (code gets a -copy suffix)."""
    base = f"{fmt.code}-copy"[:36]
    code, n = base, 1
    while MatchPointFormat.objects.filter(code=code).exists():
        n += 1
        code = f"{base}-{n}"
    return MatchPointFormat.objects.create(
        code=code,
        name=f"{fmt.name} (copy)"[:100],
        club=club or fmt.club,
        win=fmt.win,
        skunk=fmt.skunk,
        double_skunk=fmt.double_skunk,
        triple_skunk=fmt.triple_skunk,
        triple_skunk_wins_match=fmt.triple_skunk_wins_match,
        forfeit_points=fmt.forfeit_points,
        forfeit_spread=fmt.forfeit_spread,
        bye_points=fmt.bye_points,
        bye_spread=fmt.bye_spread,
    )
