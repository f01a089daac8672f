"""The tournaments app's models, split by concern; every name is re-exported here.

- ``clubs``: clubs, players, match-point formats.
- ``members``: a club's members by season, the ACC number's format.
- ``events``: events (and their random seed), entries.
- ``games``: the games of an event (rounds), tables, game results, forbidden pairs.
- ``playoff``: brackets, playoff matches and games.
- ``stoppa``: Stoppa tables and seats.
- ``audit``: the audit log.
- ``door``: online registrations, the waiting list, event templates.

``tournaments.models.X`` keeps resolving for every name (migrations reference
``tournaments.models.new_seed``, the API schema settings ``tournaments.models.Event.Kind``).
"""

# Imported in this order on purpose, not an import sorter's: the models register with the app
# in the order the single module declared them, which apps.get_models() and dumpdata follow.
# isort: off
from .clubs import BUILTIN_FORMAT_NAMES as BUILTIN_FORMAT_NAMES
from .clubs import Club as Club
from .clubs import MatchPointFormat as MatchPointFormat
from .clubs import Player as Player
from .clubs import PlayerQuerySet as PlayerQuerySet
from .members import ACC_NUMBER as ACC_NUMBER
from .members import Membership as Membership
from .members import validate_acc_number as validate_acc_number
from .events import PRIVATE_STATUSES as PRIVATE_STATUSES
from .events import Entry as Entry
from .events import Event as Event
from .events import new_door_token as new_door_token
from .events import entry_name as entry_name
from .events import entry_names as entry_names
from .events import new_seed as new_seed
from .events import team_name as team_name
from .games import ForbiddenPair as ForbiddenPair
from .games import GameResult as GameResult
from .games import Round as Round
from .games import Table as Table
from .playoff import Bracket as Bracket
from .playoff import PlayoffGame as PlayoffGame
from .playoff import PlayoffMatch as PlayoffMatch

# Stoppa's models live in its game kind's package; re-exported here so Django registers
# them under the tournaments app.
from tournaments.stoppa.models import StoppaSeat as StoppaSeat
from tournaments.stoppa.models import StoppaTable as StoppaTable
from .audit import AuditEntry as AuditEntry
from .door import EventTemplate as EventTemplate
from .door import Registration as Registration
from .door import WaitingPlace as WaitingPlace

# A club's leagues (issue 28) live in their own package, registered here like Stoppa's.
from tournaments.leagues.models import League as League
from tournaments.leagues.models import LeagueAuditEntry as LeagueAuditEntry
from tournaments.leagues.models import LeagueMatch as LeagueMatch
from tournaments.leagues.models import LeagueTeam as LeagueTeam
from tournaments.leagues.models import Leg as Leg

# isort: on

__all__ = [
    "ACC_NUMBER",
    "BUILTIN_FORMAT_NAMES",
    "PRIVATE_STATUSES",
    "AuditEntry",
    "Bracket",
    "Club",
    "Entry",
    "Event",
    "EventTemplate",
    "ForbiddenPair",
    "GameResult",
    "League",
    "LeagueAuditEntry",
    "LeagueMatch",
    "LeagueTeam",
    "Leg",
    "MatchPointFormat",
    "Membership",
    "Player",
    "PlayerQuerySet",
    "PlayoffGame",
    "PlayoffMatch",
    "Registration",
    "Round",
    "StoppaSeat",
    "StoppaTable",
    "Table",
    "WaitingPlace",
    "entry_name",
    "entry_names",
    "new_door_token",
    "new_seed",
    "team_name",
    "validate_acc_number",
]
