"""The it, de and ro catalogues: complete, valid, and in step with the source."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    po = catalogue(language)
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"
    assert len(po) > 1000


@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_accepts_the_catalogue(language):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("gettext's msgfmt is not installed (.ci/run installs it)")
    po = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    done = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(po)], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_are_all_filled(language):
    po = catalogue(language)
    forms = {"it": 2, "de": 2, "ro": 3}[language]
    for entry in po:
        if entry.msgid_plural:
            assert len(entry.msgstr_plural) == forms, entry.msgid
            assert all(entry.msgstr_plural.values()), entry.msgid


def test_no_new_english_string_lands_without_its_translations(tmp_path):
    """makemessages over the source finds no msgid the catalogues do not have: a new
    English string cannot land untranslated. (The check runs makemessages on a copy of the
    Italian catalogue and puts the committed file back.)"""
    if shutil.which("xgettext") is None:
        pytest.skip("gettext's xgettext is not installed (.ci/run installs it)")
    po_path = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po"
    committed = po_path.read_bytes()
    known = {(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path)) if not e.obsolete}
    try:
        call_command(
            "makemessages",
            locale=["it"],
            no_location=True,
            ignore_patterns=[".venv", "bench", "tests", "var", "staticfiles", "build"],
            verbosity=0,
        )
        found = {(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path)) if not e.obsolete}
    finally:
        po_path.write_bytes(committed)
    new = sorted(msgid for _ctx, msgid in found - known)
    assert not new, f"{len(new)} new strings to translate (make messages): {new[:10]}"
