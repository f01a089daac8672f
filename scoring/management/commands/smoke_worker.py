import time

from django.core.management.base import BaseCommand, CommandError

from core.tasks import ping
from scoring.models import StandingsSnapshot
from scoring.selectors import standings_for_event
from scoring.services import recompute_pending
from scoring.tasks import recompute_standings
from tournaments.models import Event


class Command(BaseCommand):
    help = "Send tasks to a running Celery worker and wait for their results (CI smoke step)."

    def add_arguments(self, parser):
        parser.add_argument("--timeout", type=float, default=60.0)

    def handle(self, *args, timeout: float, **options):
        if ping.app.conf.task_always_eager:
            raise CommandError("CELERY_BROKER_URL is not set: there is no worker to talk to.")
        start = time.monotonic()
        try:
            answer = ping.delay().get(timeout=timeout)
        except Exception as exc:  # the broker or worker is the thing under test
            raise CommandError(f"No answer from a worker: {exc}") from exc
        if answer != "pong":
            raise CommandError(f"Unexpected answer from the worker: {answer!r}")
        self.stdout.write(f"ping -> {answer} in {time.monotonic() - start:.2f} s")

        event = Event.objects.order_by("pk").first()
        if event is None:
            raise CommandError("No event in the database: run load_demo first.")
        # A worker that starts catches up (its sweep queues the events behind, after the
        # gather countdown): let that run finish first, or it rebuilds the snapshots deleted
        # below and the run sent here finds nothing to write.
        deadline = time.monotonic() + timeout
        while recompute_pending(event.pk):
            if time.monotonic() > deadline:
                raise CommandError(f"The worker did not catch up on event {event.pk} in time.")
            time.sleep(0.1)
        StandingsSnapshot.objects.filter(event=event).delete()
        start = time.monotonic()
        rows = recompute_standings.delay(event.pk).get(timeout=timeout)
        stored = standings_for_event(event.pk).count()
        if rows < stored or stored == 0:
            raise CommandError(
                f"The worker reported {rows} standings rows; the table has {stored}."
            )
        seconds = time.monotonic() - start
        self.stdout.write(
            self.style.SUCCESS(f"recompute_standings({event.pk}) -> {rows} rows in {seconds:.2f} s")
        )
