"""The TD's event archive: download an event as one JSON file, and import one into the club."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET

from core.errors import ServiceError
from scoring.exports import content_disposition
from tournaments import selectors
from tournaments.forms import ServiceForm

from .archive import MAX_ARCHIVE_BYTES, export_event, import_event, parse_archive


class ArchiveUploadForm(ServiceForm):
    """An event archive (``pegboard.event-archive``, JSON) to import into the club."""

    file = forms.FileField(label=_lazy("Event archive (JSON)"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(
                _("The file is over %(mb)s MB, the limit for an event archive.")
                % {"mb": MAX_ARCHIVE_BYTES // (1024 * 1024)}
            )
        try:
            return parse_archive(upload.read())
        except ServiceError as exc:
            raise forms.ValidationError(exc.message) from None


@login_required
@require_GET
def td_event_archive(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/td/events/<id>/archive.json``: the whole event as one file (the TD's only: it holds
    every report and the audit trail)."""
    event = selectors.directed_event(request.user, event_id)
    body = json.dumps(export_event(event), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1)
    response = HttpResponse(body.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition(
        f"{event.name} {event.date:%Y-%m-%d} archive.json"
    )
    return response


@login_required
def td_club_import(request: HttpRequest, club_id: int) -> HttpResponse:
    """``/td/clubs/<id>/import/``: upload an event archive; the event is rebuilt in this
    club and the TD lands on its page. A bad file is a form error (400)."""
    club = selectors.directed_club(request.user, club_id)
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        event = form.run(lambda: import_event(form.cleaned_data["file"], club=club))
        if event is not None:
            messages.success(
                request,
                _("Imported %(name)s with %(n)s players.")
                % {"name": event.name, "n": event.entries.count()},
            )
            return redirect("td-event", event_id=event.pk)
    status = 400 if request.method == "POST" else 200
    limit = {"mb": MAX_ARCHIVE_BYTES // (1024 * 1024)}
    context = {
        "club": club,
        "form": form,
        "max_bytes": MAX_ARCHIVE_BYTES,
        "limit_text": _("At most %(mb)s MB.") % limit,
        "too_large": _("The file is over %(mb)s MB, the limit for an event archive.") % limit,
    }
    return render(request, "results/club_import.html", context, status=status)
