"""Forms of the TD pages. Validation of the rules is the services' job; forms only carry it.

One module per concern; every form is importable from here, as before the split:

- ``base``: ``ServiceForm`` (runs a service, a ServiceError becomes a form error) and the
  Bootstrap styling of widgets;
- ``results``: a table's result and a playoff game, as the TD records them;
- ``entries``: registration at the door, the roster import, forbidden pairs;
- ``teams``: a team of two partners registered at the door;
- ``draw``: the event's format, a seat swap, the cut to the playoff;
- Stoppa's session nets, deal records and table sizes live in ``tournaments.stoppa.forms``
  (still importable from here, looked up on first use);
- ``clubs``: the club, its TDs, its defaults and its players;
- ``chain``: the ranking-chain editor's logic;
- ``events``: the event's settings (the new-event wizard and the settings page).
"""

from .base import ServiceForm as ServiceForm
from .chain import chain_rows as chain_rows
from .chain import edit_chain as edit_chain
from .clubs import ClubDefaultsForm as ClubDefaultsForm
from .clubs import ClubForm as ClubForm
from .clubs import MergeForm as MergeForm
from .clubs import RenameForm as RenameForm
from .clubs import UserForm as UserForm
from .draw import FormatForm as FormatForm
from .draw import PlayoffForm as PlayoffForm
from .draw import SwapForm as SwapForm
from .entries import MAX_ROSTER_BYTES as MAX_ROSTER_BYTES
from .entries import ForbiddenPairForm as ForbiddenPairForm
from .entries import RegisterForm as RegisterForm
from .entries import RosterImportForm as RosterImportForm
from .events import QUALIFYING_SETTINGS as QUALIFYING_SETTINGS
from .events import EventForm as EventForm
from .events import chain_needs_review as chain_needs_review
from .events import rebound_event_form as rebound_event_form
from .results import PlayoffGameForm as PlayoffGameForm
from .results import ResultForm as ResultForm
from .teams import TeamForm as TeamForm

_STOPPA_FORMS = ("StoppaDealsForm", "StoppaNetsForm", "StoppaTableSizesForm")


def __getattr__(name: str) -> object:
    # Stoppa's forms import ``.base`` from this package, so importing them here eagerly would
    # be circular when ``tournaments.stoppa.forms`` is the first to load; look them up lazily.
    if name in _STOPPA_FORMS:
        from ..stoppa import forms as stoppa_forms

        return getattr(stoppa_forms, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
