"""Playoffs: the cut (or a random draw) into a bracket, its games, undo, the consolation."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks, pairing
from tournaments import pairing_bridge as bridge
from tournaments.audit_chain import append_audit
from tournaments.models import (
    AuditEntry,
    Bracket,
    Entry,
    Event,
    PlayoffGame,
    PlayoffMatch,
    entry_names,
)
from tournaments.outcome import OutcomeError, game_outcome

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event

_PLAYOFF_FIELDS = {
    "bad_best_of": "best_of",
    "too_many_qualifiers": "qualifiers",
    "too_few_qualifiers": "qualifiers",
    "too_few_players": "qualifiers",
    "bad_options": "double_elimination",
    "bracket_too_small": "third_place",
}


def _qualifying_seeds(
    event: Event, qualifiers: int | None, *, confirm_lots: bool = False
) -> tuple[list[int], int, list[dict]]:
    """The qualifiers in seed order from the event's standings, the number of entrants, and
    the draws of lots that settled the ties the whole ranking chain left among them.

    Players still tied after the chain are put in order by the recorded draw of lots (the
    ``draw`` tiebreaker: fixed by the event's seed, reproducible), never by name. When such a
    tie straddles the cut line the TD must confirm the cut (``confirm_lots``): ServiceError
    ``cut_tie`` says who tied and whom the lots put through.
    """
    last = event.rounds.order_by("-number").first()
    if last is None:
        raise ServiceError(
            TournamentsError.NO_QUALIFYING,
            _("No qualifying game has been played: draw the bracket at random instead."),
            field="source",
        )
    if last.is_draft or event.game_kind.open_tables(last):
        raise ServiceError(
            TournamentsError.QUALIFYING_OPEN,
            _("Game %(game)s is not complete: the cut waits for every qualifying result.")
            % {"game": last.number},
        )
    # The cut reads every committed result, not a standings table a job may still rebuild.
    rows = hooks.current_ranking(event.pk)
    try:
        plan = pairing.plan_playoff(len(rows), qualifiers)
    except pairing.PairingError as exc:
        raise bridge.service_error(exc, field="qualifiers") from None
    # A withdrawn player cannot play on: the next in the ranking takes the place.
    active = [row for row in rows if not row.withdrawn]
    if len(active) < plan.qualifiers:
        raise ServiceError(
            TournamentsError.TOO_MANY_QUALIFIERS,
            _("Only %(n)s players are still in the event.") % {"n": len(active)},
            field="qualifiers",
        )
    ranking, lots = _settle_ties(event, active, plan.qualifiers)
    straddling = [draw for draw in lots if draw["straddles"]]
    if straddling and not confirm_lots:
        names = entry_names(Entry.objects.filter(event=event))
        draw = straddling[0]
        raise ServiceError(
            TournamentsError.CUT_TIE,
            _(
                "%(tied)s tie for the last places across the cut line on every tiebreaker. "
                "The draw of lots puts through: %(through)s. Confirm the cut by the draw of "
                "lots to go on."
            )
            % {
                "tied": ", ".join(names[e["entry"]] for e in draw["entries"]),
                "through": ", ".join(names[e["entry"]] for e in draw["entries"] if e["qualified"]),
            },
            field="confirm_lots",
        )
    return ranking[: plan.qualifiers], len(rows), lots


def _settle_ties(
    event: Event, active: list[hooks.RankedEntry], qualifiers: int
) -> tuple[list[int], list[dict]]:
    """The ranking with every group still tied at or above the cut line put in order by the
    draw of lots, and a record of each draw: who drew which lot, who qualified."""
    from tournaments.tiebreakers import REGISTRY, RankingContext

    lots_breaker = REGISTRY["draw"]
    context = RankingContext(lines={}, seed=event.seed)
    ranking: list[int] = []
    lots: list[dict] = []
    start = 0
    while start < len(active):
        end = start
        while end < len(active) and active[end].rank == active[start].rank:
            end += 1
        group = [row.entry_id for row in active[start:end]]
        if len(group) > 1 and start < qualifiers:
            values = lots_breaker.values(group, context)
            group.sort(key=values.__getitem__, reverse=lots_breaker.higher_is_better)
            lots.append(
                {
                    "rank": active[start].rank,
                    "straddles": end > qualifiers,
                    "entries": [
                        {"entry": entry, "lot": i + 1, "qualified": start + i < qualifiers}
                        for i, entry in enumerate(group)
                    ],
                }
            )
        ranking.extend(group)
        start = end
    return ranking, lots


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
    confirm_lots: bool = False,
    by_rating: bool | None = None,
) -> Bracket:
    """The playoff of an event: the cut from its qualifying ranking, or a random draw.

    ``source="qualifying"`` (the default once games were played) takes ceil(entrants / 4)
    qualifiers (or ``qualifiers``) from the standings, seeded by rank, byes to the top seeds.
    ``source="draw"`` (playoff-only and internet-style events) draws the checked-in field into
    round one at random from a stored seed; byes go to the entrants highest in the standings
    of ``ranking_event`` (a named ranking), if given. Options as in
    :func:`tournaments.pairing.build_bracket`. Ties the chain leaves at the cut are settled by
    a recorded draw of lots, which the TD confirms (``confirm_lots``) when it decides who
    qualifies (see :func:`_qualifying_seeds`). ``by_rating`` (default: the event's "seed by
    club rating" setting, unless a ``ranking_event`` is named) seeds a drawn bracket by the
    players' club ratings instead of drawing it at random.
    """
    event = locked_event(event)
    if Bracket.objects.filter(event=event).exists():
        raise ServiceError(
            TournamentsError.PLAYOFF_EXISTS, _("This event already has its playoff.")
        )
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    if source is None:
        source = Bracket.Source.QUALIFYING if event.rounds.exists() else Bracket.Source.DRAW
    if source not in Bracket.Source.values:
        raise ServiceError(
            TournamentsError.BAD_SOURCE, _("Unknown way to seed the playoff."), field="source"
        )
    if by_rating and ranking_event is not None:
        raise ServiceError(
            TournamentsError.RANKING_AND_RATING,
            _("Seed by club rating, or give the byes by another event's ranking: not both."),
            field="ranking_event",
        )
    if by_rating is None:
        by_rating = event.seed_by_rating and ranking_event is None
    if ranking_event is not None and ranking_event.club_id != event.club_id:
        raise ServiceError(
            TournamentsError.UNKNOWN_RANKING,
            _("Choose a ranking of this club."),
            field="ranking_event",
        )
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.is_draft:
        raise ServiceError(
            TournamentsError.PREVIOUS_GAME_DRAFT,
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
    if qualifiers is None and source == Bracket.Source.QUALIFYING:
        qualifiers = event.qualifiers  # the cut size set with the event, if any
    try:
        if source == Bracket.Source.QUALIFYING:
            bracket.seeds, bracket.entrants, bracket.cut_lots = _qualifying_seeds(
                event, qualifiers, confirm_lots=confirm_lots
            )
            pure = pairing.build_bracket(bracket.seeds, **bridge.bracket_options(bracket))
        else:
            players = [e.pk for e in bridge.active_entries(event)]
            if qualifiers is not None and qualifiers != len(players):
                raise ServiceError(
                    TournamentsError.BAD_QUALIFIERS,
                    _("A drawn bracket takes every checked-in player (%(n)s).")
                    % {"n": len(players)},
                    field="qualifiers",
                )
            if by_rating:
                seeded = bridge.rating_order(event, players, {})
                pure = pairing.build_bracket(seeded, **bridge.bracket_options(bracket))
            else:
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
        raise ServiceError(TournamentsError.NO_PLAYOFF, _("This event has no playoff yet."))
    code = match.code if isinstance(match, PlayoffMatch) else str(match)
    row = bracket.matches.select_for_update().filter(code=code).first()
    if row is None:
        raise ServiceError(
            TournamentsError.UNKNOWN_MATCH,
            _("There is no match %(code)s.") % {"code": code},
            field="match",
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
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    bracket, row = _locked_match(event, match)
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    if row.decided:
        raise ServiceError(
            TournamentsError.MATCH_DECIDED,
            _("Match %(code)s is already decided.") % {"code": row.code},
        )
    if not row.ready:
        raise ServiceError(
            TournamentsError.MATCH_NOT_READY,
            _("Match %(code)s is still waiting for a player.") % {"code": row.code},
        )
    if winner_id not in (row.seat_a_id, row.seat_b_id):
        raise ServiceError(
            TournamentsError.WINNER_NOT_IN_MATCH,
            _("That player is not playing in match %(code)s.") % {"code": row.code},
            field="winner",
        )
    if forfeit:
        loser_score = None
    elif loser_score is None:
        raise ServiceError(
            TournamentsError.SCORE_REQUIRED, _("Enter the loser's score."), field="loser_score"
        )
    else:
        try:
            game_outcome(event.match_point_format, event.target, loser_score)
        except OutcomeError as exc:
            raise ServiceError(
                TournamentsError(exc.code), exc.message, field="loser_score"
            ) from None
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
        entered_by=acting_user(user),
    )
    names = dict(
        Entry.objects.filter(pk__in=[row.seat_a_id, row.seat_b_id]).values_list(
            "pk", "player__name"
        )
    )
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                table=None,
                user=acting_user(user),
                actor=actor_name(user),
                action="playoff_game",
                new={
                    "match": row.code,
                    "game": game.number,
                    "winner": names.get(winner_id, str(winner_id)),
                    "loser_score": loser_score,
                    "forfeit": forfeit,
                },
            )
        ],
    )
    bridge.save_bracket(bracket, pure)
    # A playoff game is a confirmed game: the final places and the ratings follow it.
    hooks.results_changed(event.pk)
    return game


@transaction.atomic
def undo_playoff_game(event: Event, *, match: PlayoffMatch | str, user: UserLike = None) -> None:
    """Remove the last game of a match (a mistyped winner), while no later match has a game."""
    event = locked_event(event)
    bracket, row = _locked_match(event, match)
    last = row.games.order_by("-number").first()
    if last is None:
        raise ServiceError(
            TournamentsError.NO_GAMES, _("Match %(code)s has no game yet.") % {"code": row.code}
        )
    if row.decided:
        later = bridge.fed_matches(row)
        if PlayoffGame.objects.filter(match__bracket=bracket, match__code__in=later).exists():
            raise ServiceError(
                TournamentsError.LATER_GAMES,
                _("The players of match %(code)s have already played on.") % {"code": row.code},
            )
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                table=None,
                user=acting_user(user),
                actor=actor_name(user),
                action="playoff_game_undone",
                old={
                    "match": row.code,
                    "game": last.number,
                    "winner": last.winner.name,
                    "loser_score": last.loser_score,
                    "forfeit": last.forfeit,
                },
            )
        ],
    )
    last.delete()
    bridge.save_bracket(bracket, bridge.pure_bracket(bracket))
    hooks.results_changed(event.pk)


@transaction.atomic
def create_consolation(event: Event, *, name: str = "", games_planned: int = 9) -> Event:
    """The consolation event: everyone of ``event`` who did not make its playoff (and has not
    withdrawn), entered and checked in, with its own qualifying games and its own playoff."""
    event = locked_event(event)
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is None or bracket.source != Bracket.Source.QUALIFYING:
        raise ServiceError(
            TournamentsError.NO_CUT,
            _("The consolation is for those who missed the cut: make the cut first."),
        )
    if not 1 <= games_planned <= 40:
        raise ServiceError(
            TournamentsError.BAD_GAMES_PLANNED,
            _("The number of games must be between 1 and 40."),
            field="games_planned",
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
