"""``manage.py api_token <username> [--reset]``: the user's API token, for a club's scripts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = (
        "Print the API token of a user (created if missing): scripts send it as "
        "'Authorization: Token <key>'. --reset replaces it (the old one stops working)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--reset", action="store_true", help="Replace the token.")

    def handle(self, *args, username: str, reset: bool, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        if reset:
            Token.objects.filter(user=user).delete()
        token, _created = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
