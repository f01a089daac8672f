"""Standings become snapshots per game. Stored rows are derived data: they are dropped and the
next recompute writes them again."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_ranking_chain"),
        ("tournaments", "0002_ranking_chain"),
    ]

    operations = [
        migrations.DeleteModel(name="Standing"),
        migrations.CreateModel(
            name="StandingsSnapshot",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("after_game", models.PositiveIntegerField(verbose_name="after game")),
                ("complete", models.BooleanField(default=False, verbose_name="game complete")),
                ("version", models.PositiveIntegerField(default=0, verbose_name="version")),
                ("fingerprint", models.CharField(blank=True, editable=False, max_length=200, verbose_name="fingerprint")),
                ("computed_at", models.DateTimeField(verbose_name="computed at")),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="snapshots",
                        to="tournaments.event",
                        verbose_name="event",
                    ),
                ),
            ],
            options={
                "verbose_name": "standings snapshot",
                "verbose_name_plural": "standings snapshots",
                "ordering": ["event", "after_game"],
                "constraints": [
                    models.UniqueConstraint(fields=("event", "after_game"), name="one_snapshot_per_game")
                ],
            },
        ),
        migrations.CreateModel(
            name="Standing",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("rank", models.PositiveIntegerField(verbose_name="rank")),
                ("tied", models.BooleanField(default=False, verbose_name="tied")),
                (
                    "separated_by",
                    models.CharField(
                        blank=True,
                        help_text="The tiebreaker that put this row below the one above.",
                        max_length=30,
                        verbose_name="separated by",
                    ),
                ),
                ("game_points", models.IntegerField(default=0, verbose_name="game points")),
                ("games_played", models.PositiveIntegerField(default=0, verbose_name="games played")),
                ("games_won", models.PositiveIntegerField(default=0, verbose_name="games won")),
                ("games_lost", models.PositiveIntegerField(default=0, verbose_name="games lost")),
                ("spread", models.IntegerField(default=0, verbose_name="net spread")),
                ("skunks_won", models.PositiveIntegerField(default=0, verbose_name="skunks won")),
                ("skunks_suffered", models.PositiveIntegerField(default=0, verbose_name="skunks suffered")),
                ("byes", models.PositiveIntegerField(default=0, verbose_name="byes")),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="standings",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="standings",
                        to="tournaments.event",
                        verbose_name="event",
                    ),
                ),
                (
                    "snapshot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rows",
                        to="scoring.standingssnapshot",
                        verbose_name="snapshot",
                    ),
                ),
            ],
            options={
                "verbose_name": "standing",
                "verbose_name_plural": "standings",
                "ordering": ["snapshot", "rank", "entry__player__name"],
                "indexes": [models.Index(fields=["snapshot", "rank"], name="scoring_sta_snapsho_68fd81_idx")],
                "constraints": [
                    models.UniqueConstraint(fields=("snapshot", "entry"), name="one_row_per_entry_and_snapshot")
                ],
            },
        ),
    ]
