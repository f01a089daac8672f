"""Compile the translation catalogues (locale/*/LC_MESSAGES/django.po -> .mo).

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``; a bare machine may not have it,
and ``make run`` must still serve the pages in Italian, German and Romanian. This command uses
``msgfmt`` (with its checks) when it is on the PATH and polib otherwise. Only catalogues newer
than their .mo are compiled.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po to .mo (msgfmt if present, else polib)."

    def handle(self, *args, **options) -> None:
        msgfmt = shutil.which("msgfmt")
        compiled = 0
        for root in settings.LOCALE_PATHS:
            for po in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
                mo = po.with_suffix(".mo")
                if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
                    continue
                if msgfmt:
                    done = subprocess.run(
                        [msgfmt, "--check", "-o", str(mo), str(po)],
                        capture_output=True,
                        text=True,
                    )
                    if done.returncode:
                        raise CommandError(f"{po}: {done.stderr.strip()}")
                else:
                    import polib

                    polib.pofile(str(po)).save_as_mofile(str(mo))
                compiled += 1
        self.stdout.write(f"compiled {compiled} catalogue(s)")
