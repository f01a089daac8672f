"""A player's record with each partner (partners' cribbage): what the player page shows of
the games a player played in a team, counted for the player, partner by partner."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import GameResult, Player


@dataclass(frozen=True, slots=True)
class PartnerLine:
    """The games a player played with one partner: how many, how many won, in how many
    events."""

    partner_id: int
    name: str
    games: int
    won: int
    events: int

    @property
    def lost(self) -> int:
        return self.games - self.won


def partner_record(player_id: int) -> list[PartnerLine]:
    """The player's games in a team, by partner (most games first, then by name): every
    result with a loser (forfeits count as the standings count them; a bye is no game)."""
    mine = Q(player_id=player_id) | Q(partner_id=player_id)
    results = (
        GameResult.objects.filter(loser__isnull=False)
        .filter(
            Q(winner__partner__isnull=False, winner__in=_teams(mine))
            | Q(loser__partner__isnull=False, loser__in=_teams(mine))
        )
        .values_list(
            "winner__player_id",
            "winner__partner_id",
            "loser__player_id",
            "loser__partner_id",
            "winner__event_id",
        )
    )
    tally: dict[int, list] = {}
    for w_player, w_partner, l_player, l_partner, event_id in results:
        won = player_id in (w_player, w_partner)
        team = (w_player, w_partner) if won else (l_player, l_partner)
        mate = team[1] if team[0] == player_id else team[0]
        line = tally.setdefault(mate, [0, 0, set()])
        line[0] += 1
        line[1] += int(won)
        line[2].add(event_id)
    names = dict(Player.objects.filter(pk__in=tally).values_list("pk", "name"))
    lines = [
        PartnerLine(mate, names[mate], games, won, len(events))
        for mate, (games, won, events) in tally.items()
    ]
    return sorted(lines, key=lambda line: (-line.games, line.name.casefold(), line.partner_id))


def _teams(mine: Q):
    from tournaments.models import Entry

    return Entry.objects.filter(mine, partner__isnull=False).values("pk")
