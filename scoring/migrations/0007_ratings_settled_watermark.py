from django.db import migrations, models
from django.db.models import F


def settle(apps, schema_editor):
    # Every result at or under the old watermark was rated: it is the settled one.
    apps.get_model("scoring", "RatingState").objects.update(settled_id=F("result_id"))


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_standings_rows_checked_by_the_job")]

    operations = [
        migrations.AddField(
            model_name="ratingstate",
            name="settled_id",
            field=models.BigIntegerField(default=0, editable=False, verbose_name="settled result"),
        ),
        migrations.AddField(
            model_name="ratingstate",
            name="recent",
            field=models.JSONField(
                blank=True, default=list, verbose_name="rated results past the settled one"
            ),
        ),
        migrations.RunPython(settle, migrations.RunPython.noop),
    ]
