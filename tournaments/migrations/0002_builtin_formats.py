"""The four match-point formats of ACC and free play, built in for every club."""

from django.db import migrations

BUILTIN = [
    # code, name, win, skunk, double, triple, triple wins the match
    ("acc", "ACC tournament rules (2 / 3)", 2, 3, 3, 3, False),
    ("long-match", "Long match (3 / 4)", 3, 4, 4, 4, False),
    ("free-play", "Free play (1 / 2 / 3)", 1, 2, 3, 3, False),
    ("free-play-triple", "Free play with triple skunk (1 / 2 / 4 / match)", 1, 2, 4, 4, True),
]


def add_formats(apps, schema_editor):
    MatchPointFormat = apps.get_model("tournaments", "MatchPointFormat")
    for code, name, win, skunk, double, triple, wins_match in BUILTIN:
        MatchPointFormat.objects.update_or_create(
            code=code,
            defaults={
                "name": name,
                "win": win,
                "skunk": skunk,
                "double_skunk": double,
                "triple_skunk": triple,
                "triple_skunk_wins_match": wins_match,
                "builtin": True,
            },
        )


def remove_formats(apps, schema_editor):
    apps.get_model("tournaments", "MatchPointFormat").objects.filter(builtin=True).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(add_formats, remove_formats)]
