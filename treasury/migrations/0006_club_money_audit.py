# The club's money audit log: its money defaults, payout table, side pools and treasurers
# (a club is not an event; the events' log stays the events').

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_registration_partner"),
        ("treasury", "0005_payout_table_check"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ClubMoneyAuditEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("actor", models.CharField(max_length=150, verbose_name="who")),
                ("action", models.CharField(max_length=40, verbose_name="action")),
                ("old", models.JSONField(blank=True, null=True, verbose_name="old value")),
                ("new", models.JSONField(blank=True, null=True, verbose_name="new value")),
                ("reason", models.CharField(blank=True, max_length=300, verbose_name="reason")),
                (
                    "at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="when"),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="money_audit",
                        to="tournaments.club",
                        verbose_name="club",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "club money audit entry",
                "verbose_name_plural": "club money audit log",
                "ordering": ["club", "-at", "-pk"],
            },
        ),
    ]
