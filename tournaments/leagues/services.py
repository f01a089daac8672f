"""The writes of leagues: a league, its teams, its fixtures and each leg's result.

Every write is checked here (a refused one raises ServiceError with a LeagueError code and
writes nothing) and logged in the league's audit log (:class:`LeagueAuditEntry`).

The club rules chosen (League's docstring): a team's players are the club's players and a
player is in one team of a league; a leg's players belong to their team, doubles have 2 a
side and singles 1; a player plays at most ``legs_per_player`` legs of one match (1 by
default: every leg by different players; 0 lifts the limit).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ServiceError
from tournaments import selectors as tournament_selectors
from tournaments.models import Club, Player
from tournaments.outcome import OutcomeError, skunk_level
from tournaments.services._common import UserLike, acting_user, actor_name

from .error_codes import LeagueError
from .models import League, LeagueAuditEntry, LeagueMatch, LeagueTeam, Leg, LegKind, Side

MAX_LEGS = 20  # the longest format clubs play is 9 legs; a typo of 50 is refused
MAX_POINTS = 100  # points for a match result; clubs give 2/1/0 or 3/1/0


def audit(
    league: League,
    user: UserLike,
    action: str,
    *,
    old: Any = None,
    new: Any = None,
    match: LeagueMatch | None = None,
    reason: str = "",
) -> LeagueAuditEntry:
    """Log one change of ``league`` (who, what, from what to what, and why)."""
    return LeagueAuditEntry.objects.create(
        league=league,
        match=match,
        user=acting_user(user),
        actor=actor_name(user),
        action=action,
        old=old,
        new=new,
        reason=reason,
    )


def check_format(
    *,
    leg_kinds: Sequence[str],
    points_win: int,
    points_draw: int,
    points_loss: int,
    target: int,
    season_start: datetime.date,
    season_end: datetime.date,
    legs_per_player: int = 1,
) -> list[str]:
    """The league's format, checked; answers the legs as plain strings."""
    kinds = [str(kind) for kind in leg_kinds]
    if not kinds or len(kinds) > MAX_LEGS or any(k not in LegKind.values for k in kinds):
        raise ServiceError(
            LeagueError.BAD_LEG_KINDS,
            _("A match has 1 to %(n)s legs, each singles or doubles.") % {"n": MAX_LEGS},
            field="leg_kinds",
        )
    if (
        max(points_win, points_draw, points_loss) > MAX_POINTS
        or min(points_win, points_draw, points_loss) < 0
    ):
        raise ServiceError(
            LeagueError.BAD_LEAGUE_POINTS,
            _("Points for a result are 0 to %(n)s.") % {"n": MAX_POINTS},
            field="points_win",
        )
    if not points_win > points_draw >= points_loss:
        raise ServiceError(
            LeagueError.BAD_LEAGUE_POINTS,
            _("A win must be worth more than a draw, and a draw at least as much as a loss."),
            field="points_draw",
        )
    if target not in (121, 61):
        raise ServiceError(
            LeagueError.BAD_LEAGUE_TARGET,
            _("Games are played to 121 or 61, not %(target)s.") % {"target": target},
            field="target",
        )
    if not 0 <= legs_per_player <= MAX_LEGS:
        raise ServiceError(
            LeagueError.BAD_LEGS_PER_PLAYER,
            _("A player plays 0 (no limit) to %(n)s legs of a match.") % {"n": MAX_LEGS},
            field="legs_per_player",
        )
    if season_end < season_start:
        raise ServiceError(
            LeagueError.BAD_SEASON,
            _("The season cannot end before it starts."),
            field="season_end",
        )
    return kinds


@transaction.atomic
def create_league(
    club: Club,
    *,
    name: str,
    season_start: datetime.date,
    season_end: datetime.date,
    leg_kinds: Sequence[str],
    win_on: str = League.WinOn.LEGS,
    points_win: int = 2,
    points_draw: int = 1,
    points_loss: int = 0,
    target: int = 121,
    legs_per_player: int = 1,
    user: UserLike = None,
) -> League:
    """A new league of ``club`` for one season, with its match format."""
    kinds = check_format(
        leg_kinds=leg_kinds,
        points_win=points_win,
        points_draw=points_draw,
        points_loss=points_loss,
        target=target,
        season_start=season_start,
        season_end=season_end,
        legs_per_player=legs_per_player,
    )
    name = name.strip()
    if League.objects.filter(club=club, name=name, season_start=season_start).exists():
        raise ServiceError(
            LeagueError.LEAGUE_NAME_TAKEN,
            _("The club already has a league called %(name)s this season.") % {"name": name},
            field="name",
        )
    league = League.objects.create(
        club=club,
        name=name,
        season_start=season_start,
        season_end=season_end,
        leg_kinds=kinds,
        win_on=League.WinOn(win_on),
        points_win=points_win,
        points_draw=points_draw,
        points_loss=points_loss,
        target=target,
        legs_per_player=legs_per_player,
    )
    audit(league, user, "league created", new={"name": name, "legs": kinds, "win_on": win_on})
    return league


def locked_league(league: League) -> League:
    """The league under its row lock: every writer of its teams, fixtures and legs takes it
    first, so they run one at a time (one lock order: the league, then a match)."""
    return League.objects.select_for_update().select_related("club").get(pk=league.pk)


def _club_players(league: League, player_ids: Iterable[int], field: str) -> list[Player]:
    ids = list(dict.fromkeys(int(pk) for pk in player_ids))
    found = {p.pk: p for p in tournament_selectors.club_players(league.club).filter(pk__in=ids)}
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise ServiceError(
            LeagueError.NOT_CLUB_PLAYER,
            _("Player %(id)s is not one of the club's players.") % {"id": missing[0]},
            field=field,
        )
    return [found[pk] for pk in ids]


@transaction.atomic
def save_team(
    league: League,
    *,
    name: str,
    player_ids: Iterable[int],
    team: LeagueTeam | None = None,
    user: UserLike = None,
) -> LeagueTeam:
    """Add a team to ``league`` (or change ``team``): a name and the club players in it.
    Under the league's lock: two saves at once cannot put one player in two teams."""
    league = locked_league(league)
    name = name.strip()
    players = _club_players(league, player_ids, "players")
    if not players:
        raise ServiceError(
            LeagueError.TEAM_EMPTY, _("A team needs at least one player."), field="players"
        )
    others = LeagueTeam.objects.filter(league=league)
    if team is not None:
        others = others.exclude(pk=team.pk)
    if others.filter(name__iexact=name).exists():
        raise ServiceError(
            LeagueError.TEAM_NAME_TAKEN,
            _("The league already has a team called %(name)s.") % {"name": name},
            field="name",
        )
    taken = (
        Player.objects.filter(league_teams__in=others, pk__in=[p.pk for p in players])
        .values_list("name", "league_teams__name")
        .first()
    )
    if taken:
        raise ServiceError(
            LeagueError.PLAYER_IN_OTHER_TEAM,
            _("%(player)s already plays for %(team)s.") % {"player": taken[0], "team": taken[1]},
            field="players",
        )
    old = None
    if team is None:
        team = LeagueTeam.objects.create(league=league, name=name)
    else:
        old = {"name": team.name, "players": sorted(p.name for p in team.players.all())}
        team.name = name
        team.save(update_fields=["name"])
    team.players.set(players)
    audit(
        league,
        user,
        "team saved",
        old=old,
        new={"name": name, "players": sorted(p.name for p in players)},
    )
    return team


def round_robin(teams: Sequence[LeagueTeam]) -> list[list[tuple[LeagueTeam, LeagueTeam]]]:
    """Rounds of (home, away) pairs where every team meets every other once (the circle
    method); an odd number of teams gives one team a bye each round. Home and away alternate
    for the fixed team and swap with the round for the others, so no team is at home in
    every round, and home games are shared out evenly: with an odd number every team is at
    home in half its matches, with an even number in half give or take one."""
    slots: list[LeagueTeam | None] = list(teams)
    if len(slots) % 2:
        # The bye holds the fixed slot: the teams all rotate and share home and away
        # exactly (at the end of the list, 5 teams had 1 to 3 home games each).
        slots.insert(0, None)
    n = len(slots)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None or b is None:
                continue
            home_first = (r % 2 == 0) if i == 0 else (i % 2 == 1)
            pairs.append((a, b) if home_first else (b, a))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


@transaction.atomic
def schedule_fixtures(
    league: League,
    *,
    first_date: datetime.date | None = None,
    days_between: int = 7,
    twice: bool = False,
    user: UserLike = None,
) -> list[LeagueMatch]:
    """The league's fixtures as a round robin (``twice``: home and away), replacing the
    fixtures not yet played; refused once a leg has been recorded (under the league's lock, so
    a leg recorded meanwhile is seen, and a leg waits for the new fixtures)."""
    league = locked_league(league)
    if Leg.objects.filter(match__league=league).exists():
        raise ServiceError(
            LeagueError.FIXTURES_PLAYED,
            _("Legs have been recorded: the fixtures can no longer be drawn again."),
        )
    teams = list(LeagueTeam.objects.filter(league=league).order_by("pk"))
    if len(teams) < 2:
        raise ServiceError(
            LeagueError.TOO_FEW_TEAMS, _("A league needs at least two teams for fixtures.")
        )
    rounds = round_robin(teams)
    if twice:
        rounds += [[(away, home) for home, away in pairs] for pairs in rounds]
    LeagueMatch.objects.filter(league=league).delete()
    matches = []
    for number, pairs in enumerate(rounds, start=1):
        date = None
        if first_date is not None:
            try:
                date = first_date + datetime.timedelta(days=days_between * (number - 1))
            except OverflowError:
                raise ServiceError(
                    LeagueError.BAD_SEASON,
                    _("The fixtures would run past the end of the calendar."),
                    field="first_date",
                ) from None
        matches += [
            LeagueMatch(league=league, round=number, date=date, home=home, away=away)
            for home, away in pairs
        ]
    LeagueMatch.objects.bulk_create(matches)
    audit(
        league,
        user,
        "fixtures drawn",
        new={"rounds": len(rounds), "matches": len(matches), "twice": twice},
    )
    return list(LeagueMatch.objects.filter(league=league).select_related("home", "away"))


def _side(
    match: LeagueMatch, team: LeagueTeam, player_ids: Sequence[int], size: int, field: str
) -> list[Player]:
    ids = [int(pk) for pk in player_ids]
    if len(ids) != size:
        raise ServiceError(
            LeagueError.WRONG_SIDE_SIZE,
            ngettext(
                "%(team)s needs %(n)s player in this leg.",
                "%(team)s needs %(n)s players in this leg.",
                size,
            )
            % {"team": team.name, "n": size},
            field=field,
        )
    if len(set(ids)) != len(ids):
        raise ServiceError(
            LeagueError.PLAYER_TWICE, _("A player cannot partner themself."), field=field
        )
    found = {p.pk: p for p in team.players.filter(pk__in=ids)}
    for pk in ids:
        if pk not in found:
            # Named only when the player is the club's: an id never tells another club's name.
            who = (
                tournament_selectors.club_players(match.league.club)
                .filter(pk=pk)
                .values_list("name", flat=True)
                .first()
            )
            raise ServiceError(
                LeagueError.NOT_IN_TEAM,
                _("%(player)s does not play for %(team)s.")
                % {"player": who or pk, "team": team.name},
                field=field,
            )
    return [found[pk] for pk in ids]


def _check_leg_limit(match: LeagueMatch, number: int, players: list[Player], field: str) -> None:
    limit = match.league.legs_per_player
    if not limit:
        return
    others = Leg.objects.filter(match=match).exclude(number=number)
    for player in players:
        played = sum(
            others.filter(**{name: player}).count()
            for name in ("home_first", "home_second", "away_first", "away_second")
        )
        if played >= limit:
            raise ServiceError(
                LeagueError.PLAYER_LEG_LIMIT,
                ngettext(
                    "%(player)s has already played %(n)s leg of this match, the league's limit.",
                    "%(player)s has already played %(n)s legs of this match, the league's limit.",
                    played,
                )
                % {"player": player.name, "n": played},
                field=field,
            )


def leg_values(leg: Leg | None) -> dict[str, Any] | None:
    """A leg as the audit log keeps it: by players' names."""
    if leg is None:
        return None
    return {
        "leg": leg.number,
        "home": [p.name for p in leg.players(Side.HOME)],
        "away": [p.name for p in leg.players(Side.AWAY)],
        "winner": leg.winner,
        "loser_score": leg.loser_score,
    }


@transaction.atomic
def record_leg(
    match: LeagueMatch,
    *,
    number: int,
    home_players: Sequence[int],
    away_players: Sequence[int],
    winner: str,
    loser_score: int,
    user: UserLike = None,
    reason: str = "",
) -> Leg:
    """Record (or correct) leg ``number`` of ``match``: who played, who won, the loser's
    score. The winner scored the league's target; spread and skunk follow from the score.

    A recorded leg changes only with a ``reason`` (``reason_required``), kept in the audit
    row with the leg before and after; the same leg typed again changes nothing."""
    locked_league(match.league)  # the league first: the fixtures cannot be drawn meanwhile
    found = (
        LeagueMatch.objects.select_for_update()
        .select_related("league", "home", "away")
        .filter(pk=match.pk)
        .first()
    )
    if found is None:
        raise ServiceError(
            LeagueError.MATCH_GONE,
            _("The fixtures were drawn again: this match is no longer in them."),
        )
    match = found
    league = match.league
    if not 1 <= number <= len(league.leg_kinds):
        raise ServiceError(
            LeagueError.NO_SUCH_LEG,
            _("A match of this league has legs 1 to %(n)s.") % {"n": len(league.leg_kinds)},
            field="number",
        )
    kind = LegKind(league.leg_kinds[number - 1])
    home = _side(match, match.home, home_players, kind.side_size, "home_players")
    away = _side(match, match.away, away_players, kind.side_size, "away_players")
    _check_leg_limit(match, number, home, "home_players")
    _check_leg_limit(match, number, away, "away_players")
    if winner not in Side.values:
        raise ServiceError(
            LeagueError.BAD_WINNER, _("The winner is the home or the away side."), field="winner"
        )
    try:
        level = skunk_level(league.target, loser_score)
    except OutcomeError as exc:
        raise ServiceError(LeagueError.BAD_LOSER_SCORE, exc.message, field="loser_score") from None
    leg = Leg.objects.filter(match=match, number=number).first()
    old = leg_values(leg)
    if leg is not None:
        same = (
            leg.home_first_id,
            leg.home_second_id,
            leg.away_first_id,
            leg.away_second_id,
            leg.winner,
            leg.loser_score,
        ) == (
            home[0].pk,
            home[1].pk if len(home) > 1 else None,
            away[0].pk,
            away[1].pk if len(away) > 1 else None,
            winner,
            loser_score,
        )
        if same:
            return leg  # typed again as recorded: no change, no audit
        reason = (reason or "").strip()[:300]
        if not reason:
            raise ServiceError(
                LeagueError.REASON_REQUIRED,
                _("Leg %(n)s is already recorded: give a reason to change it.") % {"n": number},
                field="reason",
            )
    values = {
        "kind": kind,
        "home_first": home[0],
        "home_second": home[1] if len(home) > 1 else None,
        "away_first": away[0],
        "away_second": away[1] if len(away) > 1 else None,
        "winner": Side(winner),
        "loser_score": loser_score,
        "spread": league.target - loser_score,
        "skunk_level": level,
        "entered_by": acting_user(user),
        "entered_at": timezone.now(),
    }
    leg, _created = Leg.objects.update_or_create(match=match, number=number, defaults=values)
    played = Leg.objects.filter(match=match).count()
    status = (
        LeagueMatch.Status.PLAYED if played == len(league.leg_kinds) else LeagueMatch.Status.IN_PLAY
    )
    if match.status != status:
        match.status = status
        match.save(update_fields=["status"])
    audit(
        league,
        user,
        "leg corrected" if old else "leg recorded",
        old=old,
        new=leg_values(leg),
        match=match,
        reason=reason if old else "",
    )
    return leg


def players_merged(keep: Player, merged: Player) -> None:
    """Move ``merged``'s league legs and team places to ``keep`` (a merge of two records of
    one person, before ``merged`` is deleted: the legs protect their players)."""
    for name in ("home_first", "home_second", "away_first", "away_second"):
        Leg.objects.filter(**{name: merged}).update(**{name: keep})
    for team in LeagueTeam.objects.filter(players=merged):
        team.players.add(keep)
