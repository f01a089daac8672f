"""Words that need their own msgid or format in it/de/ro (issue 22): the built-in match-point
formats' names, the card game ("Gioco") apart from one game of an event ("Partita"), and month
names in lower case mid-sentence in Italian and Romanian.

The catalogues are the lead's to update: ``INTENDED`` holds the new entries (context, msgid,
and the translation per language). The tests put them into the loaded catalogues for their
duration, so they check that the code asks for these entries (before the fix it asked for
"Game", whose translation is the word for one round, and showed the English format names).
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from tests.factories import EventFactory, event_with_field
from tournaments.forms import EventForm
from tournaments.models import MatchPointFormat

pytestmark = pytest.mark.django_db

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
IT_MONTHS = (
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre"
)
RO_MONTHS = (
    "ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie "
    "decembrie"
)

# (context, msgid): {language: translation}: the entries for locale/<lang>/LC_MESSAGES/django.po
INTENDED: dict[tuple[str | None, str], dict[str, str]] = {
    ("card game", "Game"): {"it": "Gioco", "de": "Spiel", "ro": "Joc"},
    ("card game", "game"): {"it": "gioco", "de": "Spiel", "ro": "joc"},
    (None, "ACC tournament rules (2 / 3)"): {
        "it": "Regole dei tornei ACC (2 / 3)",
        "de": "ACC-Turnierregeln (2 / 3)",
        "ro": "Regulile turneelor ACC (2 / 3)",
    },
    (None, "Long match (3 / 4)"): {
        "it": "Incontro lungo (3 / 4)",
        "de": "Langes Match (3 / 4)",
        "ro": "Meci lung (3 / 4)",
    },
    (None, "Free play (1 / 2 / 3)"): {
        "it": "Gioco libero (1 / 2 / 3)",
        "de": "Freies Spiel (1 / 2 / 3)",
        "ro": "Joc liber (1 / 2 / 3)",
    },
    (None, "Free play with triple skunk (1 / 2 / 4 / match)"): {
        "it": "Gioco libero con skunk tripla (1 / 2 / 4 / incontro)",
        "de": "Freies Spiel mit Dreifach-Skunk (1 / 2 / 4 / Match)",
        "ro": "Joc liber cu skunk triplu (1 / 2 / 4 / meci)",
    },
    (None, "%(name)s (copy)"): {
        "it": "%(name)s (copia)",
        "de": "%(name)s (Kopie)",
        "ro": "%(name)s (copie)",
    },
    **{
        ("alt. month", english): {"it": it, "ro": ro}
        for english, it, ro in zip(MONTHS, IT_MONTHS.split(), RO_MONTHS.split(), strict=True)
    },
}


@pytest.fixture
def intended():
    """The loaded catalogues with ``INTENDED`` in them, as they will be once the lead adds it."""
    changed = []
    for (context, msgid), by_language in INTENDED.items():
        key = f"{context}\x04{msgid}" if context else msgid
        for language, text in by_language.items():
            catalog = trans_real.translation(language)._catalog
            top = catalog._catalogs[0]
            changed.append((top, key, top.get(key)))
            top[key] = text
    yield
    for top, key, before in reversed(changed):
        if before is None:
            top.pop(key, None)
        else:
            top[key] = before


def test_the_built_in_format_names_are_shown_in_the_readers_language(intended, td_user):
    event = event_with_field(2)
    own = MatchPointFormat.objects.create(
        code="club-own",
        name="Serata del club (2 / 3)",
        club=event.club,
        win=2,
        skunk=3,
        double_skunk=3,
        triple_skunk=3,
    )
    with translation.override("it"):
        form = EventForm(club=event.club)
        labels = [str(label) for _value, label in form.fields["match_point_format"].choices]
        assert "Regole dei tornei ACC (2 / 3)" in labels
        assert "ACC tournament rules (2 / 3)" not in labels
        assert own.name in labels  # a club's own format keeps the name it was given
        assert str(event.match_point_format) == "Regole dei tornei ACC (2 / 3)"
    with translation.override("de"):
        assert str(MatchPointFormat.objects.get(code="free-play")) == "Freies Spiel (1 / 2 / 3)"
    # Stored as written: the archive and the API keep the built-in's English name and code.
    assert MatchPointFormat.objects.get(code="acc").name == "ACC tournament rules (2 / 3)"


def test_the_public_event_summary_names_the_format_in_italian(intended, client):
    event = event_with_field(2, status="running")
    body = client.get(reverse("event", args=[event.pk]) + "?lang=it").content.decode()
    assert "Regole dei tornei ACC (2 / 3)" in body
    assert "ACC tournament rules" not in body


@pytest.mark.parametrize(("language", "word"), [("it", "Gioco"), ("de", "Spiel"), ("ro", "Joc")])
def test_the_event_form_asks_for_the_card_game_not_a_round(
    intended, td_user, client, language, word
):
    event = event_with_field(2)
    event.club.directors.add(td_user)
    client.force_login(td_user)
    url = reverse("td-event-new", args=[event.club.pk]) + f"?lang={language}"
    body = client.get(url).content.decode()
    assert f'for="id_game">{word}</label>' in body
    with translation.override(language):
        # One game of the event keeps the word for a round.
        assert str(event.game_kind.round_label(1)) != f"{word} 1"
        assert str(EventForm.base_fields["game"].label) == word


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("it", "5 marzo 2026"),
        ("ro", "5 martie 2026"),
        ("de", "5. März 2026"),
        ("en", "March 5, 2026"),
    ],
)
def test_month_names_are_lower_case_mid_sentence(intended, td_user, client, language, written):
    event = EventFactory(date=datetime.date(2026, 3, 5), name="Serata")
    event.club.directors.add(td_user)
    client.force_login(td_user)
    body = client.get(reverse("td-event", args=[event.pk]) + f"?lang={language}").content.decode()
    assert written in body
    assert "Marzo" not in body and "Martie" not in body
    with translation.override(language):
        from django.utils import formats

        stamp = formats.date_format(datetime.datetime(2026, 3, 5, 14, 3), "DATETIME_FORMAT")
    assert "Giovedì" not in stamp and "Marzo" not in stamp and "Martie" not in stamp
