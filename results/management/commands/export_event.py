"""``manage.py export_event <id> [-o file]``: an event's archive as JSON (stdout by default)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from results.archive import export_event
from tournaments.models import Event


class Command(BaseCommand):
    help = "Write an event's archive (schema pegboard.event-archive, docs/archive-schema.md)."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("-o", "--output", help="File to write (default: standard output).")

    def handle(self, *args, event_id: int, output: str | None = None, **options):
        event = Event.objects.select_related("club", "match_point_format").filter(pk=event_id)
        if not event.exists():
            raise CommandError(f"No event {event_id}.")
        text = json.dumps(
            export_event(event.get()), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1
        )
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
            self.stderr.write(self.style.SUCCESS(f"Wrote {output} ({len(text.encode())} bytes)."))
        else:
            self.stdout.write(text)
