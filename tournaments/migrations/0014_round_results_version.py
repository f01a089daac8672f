"""A game's results version, bumped by triggers on whatever the game's standings read.

Triggers rather than the services: every writer of a result (the report path's raw SQL, the
admin, a bulk load) bumps it without a statement of its own. PostgreSQL bumps once per
statement (a bulk insert of 500 results is one UPDATE of the game); SQLite once per row.
"""

from django.db import migrations, models

ROUND = "tournaments_round"
# table -> SQL of the game ids of the rows in ``{rows}`` (a transition table or NEW / OLD).
SOURCES = {
    "tournaments_gameresult": "SELECT t.round_id FROM tournaments_table t WHERE t.id IN "
    "(SELECT table_id FROM {rows})",
    "tournaments_table": "SELECT round_id FROM {rows}",
    "tournaments_stoppatable": "SELECT round_id FROM {rows}",
    "tournaments_stoppaseat": "SELECT round_id FROM {rows}",
}
BUMP = f"UPDATE {ROUND} SET results_version = results_version + 1 WHERE id IN ({{ids}})"


def _postgresql() -> tuple[list[str], list[str]]:
    create, drop = [], []
    for table, source in SOURCES.items():
        for op, refs in (
            ("INSERT", [("NEW", "new_rows")]),
            ("UPDATE", [("NEW", "new_rows"), ("OLD", "old_rows")]),
            ("DELETE", [("OLD", "old_rows")]),
        ):
            name = f"{table}_bump_{op.lower()}"
            ids = " UNION ".join(source.format(rows=rows) for _ref, rows in refs)
            referencing = " ".join(f"{ref} TABLE AS {rows}" for ref, rows in refs)
            create.append(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"{BUMP.format(ids=ids)}; RETURN NULL; END $$"
            )
            create.append(
                f"CREATE TRIGGER {name} AFTER {op} ON {table} REFERENCING {referencing} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
            )
            drop.append(f"DROP TRIGGER IF EXISTS {name} ON {table}")
            drop.append(f"DROP FUNCTION IF EXISTS {name}()")
    return create, drop


def _sqlite() -> tuple[list[str], list[str]]:
    create, drop = [], []
    for table in SOURCES:
        for op, refs in (
            ("INSERT", ["NEW"]),
            ("UPDATE", ["NEW", "OLD"]),
            ("DELETE", ["OLD"]),
        ):
            name = f"{table}_bump_{op.lower()}"
            ids = " UNION ".join(_row_source(table, ref) for ref in refs)
            create.append(
                f"CREATE TRIGGER {name} AFTER {op} ON {table} FOR EACH ROW BEGIN "
                f"{BUMP.format(ids=ids)}; END"
            )
            drop.append(f"DROP TRIGGER IF EXISTS {name}")
    return create, drop


def _row_source(table: str, ref: str) -> str:
    # NEW / OLD are rows in SQLite, not tables: a one-row select of the game id.
    if table == "tournaments_gameresult":
        return f"SELECT round_id FROM tournaments_table WHERE id = {ref}.table_id"
    return f"SELECT {ref}.round_id"


def _statements(vendor: str) -> tuple[list[str], list[str]]:
    if vendor == "postgresql":
        return _postgresql()
    if vendor == "sqlite":
        return _sqlite()
    return [], []


def create_triggers(apps, schema_editor):
    for sql in _statements(schema_editor.connection.vendor)[0]:
        schema_editor.execute(sql)
    # Every game read once more by the standings job: its snapshots' fingerprints change.
    schema_editor.execute(f"UPDATE {ROUND} SET results_version = 1")


def drop_triggers(apps, schema_editor):
    for sql in _statements(schema_editor.connection.vendor)[1]:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_distinct_round_robin_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="results_version",
            field=models.PositiveBigIntegerField(
                default=0, editable=False, verbose_name="results version"
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
