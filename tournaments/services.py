"""Writes for events: entries, check-in, drawing games, recording results.

Every function here is one transaction: it either changes everything it says or nothing, and
it raises :class:`pegboard.errors.ServiceError` with a named code for input the rules reject.
"""

from __future__ import annotations

from collections import Counter

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from scoring.outcome import OutcomeError, game_outcome
from scoring.services import queue_standings

from .models import Entry, Event, GameResult, Player, Round, Table
from .pairing import draw_qualifying_game, pair_key

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
    """Withdraw an entry from later games; games already played stand."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.withdrawn = True
    entry.checked_in = False
    entry.save(update_fields=["withdrawn", "checked_in"])
    queue_standings(entry.event_id)
    return entry


def _open_tables(round_: Round) -> list[Table]:
    return list(round_.tables.filter(result__isnull=True).order_by("number"))


@transaction.atomic
def draw_next_game(event: Event) -> Round:
    """Draw the seating of the next game for the checked-in, active entries.

    The first draw starts a draft event. The previous game must be complete. The draw is
    reproducible: its seed is stored on the game.
    """
    event = _locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    last = event.rounds.order_by("-number").first()
    number = 1 if last is None else last.number + 1
    if number > event.games_planned:
        raise ServiceError(
            "all_games_drawn",
            _("All %(n)s games of this event have been drawn.") % {"n": event.games_planned},
        )
    if last is not None:
        open_tables = _open_tables(last)
        if open_tables:
            raise ServiceError(
                "previous_game_open",
                _("Game %(game)s still has open tables: %(tables)s.")
                % {"game": last.number, "tables": ", ".join(str(t.number) for t in open_tables)},
            )
    active = list(
        event.entries.filter(checked_in=True, withdrawn=False)
        .select_related("player")
        .order_by("pk")
    )
    if len(active) < 2:
        raise ServiceError("too_few_players", _("At least two checked-in players are needed."))

    met: Counter = Counter()
    byes: Counter = Counter()
    first_field: list[int] = []
    tables = Table.objects.filter(round__event=event).values_list(
        "round__number", "seat_a_id", "seat_b_id"
    )
    for game, a, b in tables:
        if b is None:
            byes[a] += 1
        else:
            met[pair_key(a, b)] += 1
        if game == 1:
            first_field.extend(x for x in (a, b) if x is not None)
    by_id = {e.pk: e for e in active}
    seed = (event.seed * 1_000_003 + number) % (2**31)
    seating = draw_qualifying_game(
        list(by_id),
        game_number=number,
        seed=seed,
        met=met,
        byes=byes,
        # The movement runs while the field is the one game 1 was drawn for.
        starting_field=sorted(first_field) if first_field else list(by_id),
    )

    notes = [
        _("%(a)s and %(b)s meet for time %(n)s: no seating without a repeat exists for this field.")
        % {"a": by_id[a].player.name, "b": by_id[b].player.name, "n": times + 1}
        for a, b, times in seating.repeats
    ]
    round_ = Round.objects.create(event=event, number=number, seed=seed, notes=notes)
    fmt = event.match_point_format
    Table.objects.bulk_create(
        Table(
            round=round_,
            number=table_number,
            seat_a_id=a,
            seat_b_id=b,
            note=_("Repeat opponents: no other seating was possible.")
            if met.get(pair_key(a, b), 0)
            else "",
        )
        for table_number, (a, b) in enumerate(seating.pairs, start=1)
    )
    if seating.bye is not None:
        bye_table = Table.objects.create(
            round=round_, number=None, seat_a_id=seating.bye, seat_b=None
        )
        GameResult.objects.create(
            table=bye_table,
            kind=GameResult.Kind.BYE,
            winner_id=seating.bye,
            winner_points=fmt.bye_points,
            margin=fmt.bye_spread,
        )
        queue_standings(event.pk)
    if event.status == Event.Status.DRAFT:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return round_


@transaction.atomic
def redraw_game(round_: Round) -> Round:
    """Throw away the latest game's seating (no played results yet) and draw it again."""
    event = _locked_event(round_.event)
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.pk != round_.pk:
        raise ServiceError("not_latest_game", _("Only the latest game can be drawn again."))
    if GameResult.objects.filter(table__round=round_).exclude(kind=GameResult.Kind.BYE).exists():
        raise ServiceError(
            "game_has_results", _("Game %(n)s already has results.") % {"n": round_.number}
        )
    round_.delete()
    queue_standings(event.pk)
    return draw_next_game(event)


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
    queue_standings(event.pk)
    return result


@transaction.atomic
def finish_event(event: Event) -> Event:
    """Close the event once every drawn game is complete."""
    event = _locked_event(event)
    last = event.rounds.order_by("-number").first()
    if last is not None and _open_tables(last):
        raise ServiceError("previous_game_open", _("Some tables still have no result."))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    queue_standings(event.pk)
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
    from scoring.tiebreakers import validate_chain

    event = _locked_event(event)
    try:
        event.tiebreakers = list(validate_chain(k.strip() for k in keys if k.strip()))
    except ValueError as exc:
        raise ServiceError("bad_ranking_chain", str(exc), field="tiebreakers") from None
    event.save(update_fields=["tiebreakers"])
    queue_standings(event.pk)
    return event
