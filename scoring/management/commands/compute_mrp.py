"""``manage.py compute_mrp <event id>``: compute and store an event's Master Rating Points."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from scoring.mrp_awards import compute_event_mrp
from tournaments.models import Event


class Command(BaseCommand):
    help = "Compute a finished Main or Consolation event's Master Rating Points (books.mrp)."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)

    def handle(self, *args, event_id: int, **options):
        event = Event.objects.select_related("club").filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"No event {event_id}.")
        try:
            awards = compute_event_mrp(event)
        except ServiceError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        for award in awards:
            mark = " (provisional)" if award.provisional else ""
            self.stdout.write(
                f"{award.qualifying_rank}\t{award.entry.name}\t{award.game_points}\t"
                f"{award.points}\t{award.basis}{mark}"
            )
        self.stderr.write(self.style.SUCCESS(f"{len(awards)} awards for {event.name}."))
