"""``manage.py verify_audit <event_id>``: recompute an event's audit chain."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.audit_chain import verify_chain
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Recompute an event's audit log chain: print the number of entries and the final "
        "digest, or name the first entry that does not match (and exit non-zero)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("event_id", type=int)

    def handle(self, *args, event_id: int, **options) -> None:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"There is no event {event_id}.")
        check = verify_chain(event)
        if check.intact:
            self.stdout.write(
                f"{event}: {check.entries} entries, intact. Final digest: {check.digest or '-'}"
            )
            return
        bad = check.first_mismatch
        assert bad is not None
        if bad.entry is None:
            raise CommandError(
                f"{event}: the log ends before its recorded last digest {bad.expected}: "
                f"entries were deleted at its end ({check.entries} left)."
            )
        raise CommandError(
            f"{event}: entry {bad.entry.pk} ({bad.entry.at.isoformat()}, {bad.entry.action}) "
            f"does not match: its digest should be {bad.expected}, it is {bad.found or '-'}."
        )
