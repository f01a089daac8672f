"""Players' folded names (accents, case and spacing aside), stored to be searched and sorted
by the database; every existing player's is filled in from their name."""

from django.db import migrations, models

from tournaments import names

BATCH = 1000


def fill_folded_names(apps, schema_editor):
    """Every player's ``name_folded`` from their name, a thousand at a time."""
    Player = apps.get_model("tournaments", "Player")
    batch = []
    for player in Player.objects.only("pk", "name").order_by("pk").iterator(chunk_size=BATCH):
        player.name_folded = names.fold(player.name)
        batch.append(player)
        if len(batch) == BATCH:
            Player.objects.bulk_update(batch, ["name_folded"])
            batch = []
    if batch:
        Player.objects.bulk_update(batch, ["name_folded"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_event_cancelled_and_season_flag"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_folded",
            field=models.CharField(
                default="",
                editable=False,
                max_length=240,
                verbose_name="name for searching",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_folded_names, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="player",
            name="name_folded",
            field=models.CharField(
                db_index=True, editable=False, max_length=240, verbose_name="name for searching"
            ),
        ),
    ]
