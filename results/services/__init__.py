"""Writes of results from the table, one chapter a module; each function is one transaction.

- ``keys``: players' private keys and their throttle
- ``reports``: a player's report, confirmation and dispute
- ``desk``: the TD's and scorekeepers' checks, rulings and corrections; printables
- ``paper``: paper cards reconciled by Rule 12.2, in bulk or as a Celery job
- ``sheets``: a table's nets (Stoppa) reported by one player, confirmed by the others
- ``staff``: the club's scorekeepers

Every result a report or the desk confirms crosses to tournaments once, through
``tournaments.services.results.settle_table``: it locks the table, checks, writes, audits and
announces the result (through ``write_result``, the one write of a result); results decides
under its locks. Paper cards write through ``write_results``.
"""

from .desk import accept_report, check_agreed, correct, request_printables, rule
from .keys import (
    SUBMISSIONS_PER_MINUTE,
    entry_for_key,
    key_for,
    keys_for,
    remember_language,
    throttle,
)
from .paper import (
    BadLines,
    ImportReport,
    ImportRequest,
    import_paper_cards,
    request_import,
    run_import_job,
)
from .reports import ConfirmRefusal, RecordError, SubmitOutcome, confirm_opponent, dispute, submit
from .sheets import confirm_nets, report_nets
from .staff import add_scorekeeper, remove_scorekeeper

__all__ = [
    "SUBMISSIONS_PER_MINUTE",
    "BadLines",
    "ConfirmRefusal",
    "ImportReport",
    "ImportRequest",
    "RecordError",
    "SubmitOutcome",
    "accept_report",
    "add_scorekeeper",
    "check_agreed",
    "confirm_nets",
    "confirm_opponent",
    "correct",
    "dispute",
    "entry_for_key",
    "import_paper_cards",
    "key_for",
    "keys_for",
    "remember_language",
    "remove_scorekeeper",
    "report_nets",
    "request_import",
    "request_printables",
    "rule",
    "run_import_job",
    "submit",
    "throttle",
]
