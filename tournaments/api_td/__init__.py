"""The TD's REST API: everything the TD console does, for a club's own scripts and boards.

Every route is for a signed-in TD of the event's club (a session, a token from
``manage.py api_token <username>``, or HTTP basic): anyone else gets 401 when not signed in
and 404 for another club's event, as the pages do. Each action calls the service the TD page
calls; a refused one answers 400 with the service's message and code on its field.

By concern: ``base`` (authentication, input, answers), ``serializers``, ``events``,
``entries``, ``games``, ``playoff``, ``members`` and ``registration`` (the door: online
registration, the waiting list, self check-in, event templates). The URLconf
(``pegboard/api_urls.py``) reads the views from here.
"""

from .base import TD_AUTHENTICATION as TD_AUTHENTICATION
from .base import TD_ERRORS as TD_ERRORS
from .base import TDView as TDView
from .base import settings_response as settings_response
from .base import td_event as td_event
from .base import td_on_writes as td_on_writes
from .base import valid as valid
from .entries import CheckInAll as CheckInAll
from .entries import CheckInEntry as CheckInEntry
from .entries import CheckOutEntry as CheckOutEntry
from .entries import EntryAction as EntryAction
from .entries import EventEntriesTD as EventEntriesTD
from .entries import ImportEntries as ImportEntries
from .entries import ReinstateEntry as ReinstateEntry
from .entries import WithdrawEntry as WithdrawEntry
from .entries import register_entry as register_entry
from .events import CloneEvent as CloneEvent
from .events import ClubEvents as ClubEvents
from .events import EventDetailTD as EventDetailTD
from .events import EventSettings as EventSettings
from .events import FinishEvent as FinishEvent
from .events import PublishStandings as PublishStandings
from .events import ReopenEvent as ReopenEvent
from .games import EventGamesTD as EventGamesTD
from .games import GameAction as GameAction
from .games import GameDetail as GameDetail
from .games import RedrawGame as RedrawGame
from .games import ReleaseGame as ReleaseGame
from .games import SwapSeats as SwapSeats
from .games import UndoLastResult as UndoLastResult
from .members import ClubMember as ClubMember
from .members import ClubMembers as ClubMembers
from .members import EventDoor as EventDoor
from .playoff import CreatePlayoff as CreatePlayoff
from .playoff import PlayoffGames as PlayoffGames
from .playoff import UndoPlayoffGame as UndoPlayoffGame
from .registration import ClubTemplate as ClubTemplate
from .registration import ClubTemplates as ClubTemplates
from .registration import EventFromTemplate as EventFromTemplate
from .registration import EventRegistration as EventRegistration
from .registration import EventSelfCheckIn as EventSelfCheckIn
from .serializers import CheckInAllOutput as CheckInAllOutput
from .serializers import DrawInput as DrawInput
from .serializers import EventCreateInput as EventCreateInput
from .serializers import EventInput as EventInput
from .serializers import EventPatchInput as EventPatchInput
from .serializers import EventSettingsSerializer as EventSettingsSerializer
from .serializers import GameDetailSerializer as GameDetailSerializer
from .serializers import ImportInput as ImportInput
from .serializers import ImportOutput as ImportOutput
from .serializers import NoInput as NoInput
from .serializers import PlayoffGameInput as PlayoffGameInput
from .serializers import PlayoffInput as PlayoffInput
from .serializers import PlayoffUndoInput as PlayoffUndoInput
from .serializers import PublishInput as PublishInput
from .serializers import RegisterInput as RegisterInput
from .serializers import RosterLineSerializer as RosterLineSerializer
from .serializers import SwapInput as SwapInput
from .serializers import TDEntrySerializer as TDEntrySerializer
from .serializers import TDTableSerializer as TDTableSerializer
from .serializers import UndoInput as UndoInput
from .serializers import UndoneSerializer as UndoneSerializer
from .serializers import UndoOutput as UndoOutput
from .serializers import WithdrawInput as WithdrawInput
