"""``manage.py import_event <file> [--club <id>]``: rebuild an archived event."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from results.archive import MAX_ARCHIVE_BYTES, import_event, parse_archive
from tournaments.models import Club


class Command(BaseCommand):
    help = (
        "Import an event archive (pegboard.event-archive) into a club: --club, or the "
        "archive's club (found by its slug, or created)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The archive (JSON); - reads standard input.")
        parser.add_argument("--club", type=int, help="Id of the club to import into.")

    def handle(self, *args, file: str, club: int | None = None, **options):
        target = None
        if club is not None:
            target = Club.objects.filter(pk=club).first()
            if target is None:
                raise CommandError(f"No club {club}.")
        try:
            if file == "-":
                import sys

                raw = sys.stdin.buffer.read(MAX_ARCHIVE_BYTES + 1)
            else:
                with open(file, "rb") as handle:
                    raw = handle.read(MAX_ARCHIVE_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from None
        try:
            data = parse_archive(raw)
        except ServiceError as exc:
            raise CommandError(f"{file}: {exc.message}") from None
        try:
            event = import_event(data, club=target)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported '{event.name}' as event {event.pk} of {event.club} "
                f"({event.entries.count()} players)."
            )
        )
