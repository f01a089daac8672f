"""The event archive: one JSON document with everything an event is (its club, players, settings,
every game's seating, every result with its audit trail, the reports and disputes, the playoff
and the final places), and the import that rebuilds the event from it in another Pegboard.

Schema ``pegboard.event-archive``, version 1, documented in ``docs/archive-schema.md``.
Objects inside the archive refer to each other by small numbers of their own (``ref``), never
by database ids, so an archive imports into a database whose ids are all different. Users are
not carried over (their names are kept in the audit trail as written); private player keys are
never exported.

The results app holds this package because it is the top layer: an archive reads every app
below it (the tournaments' results and audit, the scoring's hands and awards, and this app's
reports and disputes).

One module per concern: ``schema`` (the format's name, version, limits and field lists),
``json_schema`` (the declared JSON Schema), ``export``, ``validate`` (parsing the file, checking
it against the schema, and what a schema cannot say: refs, dates), ``importer`` (the
import's transaction) with ``import_setup`` (club, format, players, settings),
``import_games`` (tables, results, Stoppa) and ``import_records`` (reports, audit, disputes,
playoff, hands and master points). The names other code imports are re-exported here.
"""

from .export import export_event as export_event
from .importer import import_event as import_event
from .schema import BATCH as BATCH
from .schema import EVENT_FIELDS as EVENT_FIELDS
from .schema import FORMAT_FIELDS as FORMAT_FIELDS
from .schema import MATCH_FIELDS as MATCH_FIELDS
from .schema import MAX_ARCHIVE_BYTES as MAX_ARCHIVE_BYTES
from .schema import MAX_PLAYERS as MAX_PLAYERS
from .schema import SCHEMA as SCHEMA
from .schema import SMALL as SMALL
from .schema import STANDING_FIELDS as STANDING_FIELDS
from .schema import VERSION as VERSION
from .validate import parse_archive as parse_archive
