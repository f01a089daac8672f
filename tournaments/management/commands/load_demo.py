from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_PASSWORD, load_demo


class Command(BaseCommand):
    help = "Create the demo club with 24 players and a club night under way (idempotent)."

    def handle(self, *args, **options):
        event, created = load_demo()
        verb = "Created" if created else "Found"
        self.stdout.write(self.style.SUCCESS(f"{verb} demo event '{event.name}' (id {event.pk})."))
        self.stdout.write(f"TD log in: td / {DEMO_PASSWORD}   admin: admin / {DEMO_PASSWORD}")
