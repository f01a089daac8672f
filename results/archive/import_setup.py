"""What an imported event hangs on: the club it goes into, its match-point format, its players
(matched to this Pegboard's, or created) and the event's own settings; and the helper that
puts back the archive's timestamps after a bulk insert."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

from tournaments import kinds
from tournaments.models import Club, Event, MatchPointFormat, Player

from .schema import BATCH, FORMAT_FIELDS
from .validate import _Check, text


def _keep_times(model: type[Model], objs: list, field: str, times: list) -> None:
    """Put back the archive's timestamps that ``auto_now``/``auto_now_add`` replaced on
    insert (``bulk_update`` writes the values as given)."""
    for obj, when in zip(objs, times, strict=True):
        if when is not None:
            setattr(obj, field, when)
    keep = [obj for obj, when in zip(objs, times, strict=True) if when is not None]
    if keep:
        model._default_manager.bulk_update(keep, [field], batch_size=BATCH)


def _match_format(data: dict, club: Club) -> MatchPointFormat:
    """The format the archive's event was scored with: the one with its code when its points
    are the same, else a club format with those points (created if there is none)."""
    values = {name: data.get(name, False) for name in FORMAT_FIELDS}
    points = {k: v for k, v in values.items() if k not in ("code", "name")}
    same = MatchPointFormat.objects.filter(code=values["code"], **points).first()
    if same is None:
        same = MatchPointFormat.objects.filter(club=club, **points).order_by("pk").first()
    if same is None:
        code = str(values["code"])[:30]
        n = 1
        while MatchPointFormat.objects.filter(code=f"{code}-{n}").exists():
            n += 1
        same = MatchPointFormat.objects.create(
            code=f"{code}-{n}", name=values["name"], club=club, **points
        )
    return same


def _target_club(data: dict, club: Club | None, check: _Check) -> Club:
    if club is not None:
        return club
    info = data.get("club")
    if not isinstance(info, dict):  # the schema checks the club when there is one
        raise check.bad("club", _("should be an object"))
    # get_or_create: two imports of one club's archive at once make one club, not a clash.
    found, _created = Club.objects.get_or_create(
        slug=info["slug"], defaults={"name": info["name"], "city": text(info, "city")}
    )
    return found


def _players(data: dict, club: Club, check: _Check) -> dict[int, Player]:
    """The archive's players as players of this Pegboard: the one with the same ACC number
    (a member number is one person everywhere), else the club's player of that name, else a
    new player of the club. Two archived players never become one."""
    wanted = [
        (row["ref"], row["name"], text(row, "acc_number"), row.get("status", Player.Status.MEMBER))
        for row in data["players"]
    ]
    refs = [r for r, *_rest in wanted]
    if len(set(refs)) != len(refs):
        raise check.bad("players", _("has two players with the same ref"))
    from tournaments.selectors import club_players

    by_acc = {
        p.acc_number: p
        for p in Player.objects.filter(acc_number__in=[acc for _r, _n, acc, _s in wanted if acc])
    }
    by_name: dict[str, list[Player]] = {}
    for p in club_players(club).filter(name__in=[n for _r, n, _a, _s in wanted]):
        by_name.setdefault(p.name, []).append(p)
    used: set[int] = set()
    found: dict[Any, Player] = {}
    new: list[tuple[Any, Player]] = []
    for ref, name, acc, status in wanted:
        player = by_acc.get(acc) if acc else None
        if player is None:
            player = next(
                (
                    p
                    for p in by_name.get(name, [])
                    if p.pk not in used and (not acc or not p.acc_number)
                ),
                None,
            )
        if player is not None and player.pk not in used:
            used.add(player.pk)
            found[ref] = player
        else:
            new.append(
                (
                    ref,
                    Player(
                        name=name,
                        acc_number=acc if acc not in by_acc else "",
                        home_club=club,
                        status=status,
                    ),
                )
            )
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create([p for _r, p in new], batch_size=BATCH)
    except IntegrityError:
        raise check.bad("players", _("gives two players one ACC number")) from None
    for (ref, _p), player in zip(new, created, strict=True):
        found[ref] = player
    return found


def _import_settings(data: dict, club: Club, fmt: MatchPointFormat, check: _Check) -> Event:
    game = data["game"]
    try:
        date = parse_date(data["date"])
    except ValueError:  # well formed, but no such day
        date = None
    if date is None:
        raise check.bad("event.date", _("should be a date (YYYY-MM-DD)"))
    chain = data.get("tiebreakers") or []
    try:
        chain = list(kinds.get(game).validate_chain(chain)) if chain else []
    except (TypeError, ValueError):
        raise check.bad("event.tiebreakers", _("is not a ranking chain of this game")) from None
    return Event.objects.create(
        club=club,
        name=data["name"],
        date=date,
        game=game,
        kind=data["kind"],
        games_planned=data["games_planned"],
        target=data["target"],
        match_point_format=fmt,
        muggins=data.get("muggins", False),
        pairing=data["pairing"],
        meetings_per_opponent=data["meetings_per_opponent"],
        status=data["status"],
        seed=data["seed"],
        standings_published=data.get("standings_published", True),
        confirmation=data.get("confirmation", Event.Confirmation.OWN_KEYS),
        entrants=data.get("entrants", Event.Entrants.PLAYED),
        language=data.get("language", ""),
        seed_by_rating=data.get("seed_by_rating", False),
        qualifiers=data.get("qualifiers"),
        tiebreakers=chain,
        table_size=data["table_size"],
        min_table_size=data["min_table_size"],
        # Place points only where the archive has them: otherwise the model's defaults.
        **{f: data[f] for f in ("points_first", "points_second", "points_third") if f in data},
        registration_open=data.get("registration_open", False),
        cap=data.get("cap"),
        door_closed=data.get("door_closed", False),
    )
