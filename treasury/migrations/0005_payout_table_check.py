# The database's guard under a club's payout table (issue 33, item 5): a row starts from one
# paid entrant or more, and its percentages are a non-empty JSON list (of numbers or decimal
# text, on PostgreSQL).

import treasury.models
from django.db import migrations, models


def drop_rows_no_table_can_use(apps, schema_editor):
    """Rows the new guard refuses never made a usable table: an object, a string or an empty
    list of percentages (every sheet and close of the club failed on them), or a row from 0
    paid entrants. They are removed so the guard can be added; the club's other rows stay."""
    PayoutTableRow = apps.get_model("treasury", "PayoutTableRow")
    unusable = []
    for row in PayoutTableRow.objects.all().only("pk", "min_entrants", "percents"):
        percents = row.percents
        if (
            row.min_entrants < 1
            or not isinstance(percents, list)
            or not percents
            or any(isinstance(p, dict | list | bool) or p is None for p in percents)
        ):
            unusable.append(row.pk)
    PayoutTableRow.objects.filter(pk__in=unusable).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("treasury", "0004_money_trust"),
    ]

    operations = [
        migrations.RunPython(drop_rows_no_table_can_use, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="payouttablerow",
            constraint=models.CheckConstraint(
                condition=models.Q(("min_entrants__gte", 1)), name="payout_row_from_one_entrant"
            ),
        ),
        migrations.AddConstraint(
            model_name="payouttablerow",
            constraint=models.CheckConstraint(
                condition=treasury.models.PercentsAreAList("percents"),
                name="payout_row_percents_a_list",
            ),
        ),
    ]
