"""The public check of an event's results log: anyone can see that nobody quietly changed a
recorded result (the hash chain of ``tournaments.audit_chain``), on a page and in the API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import cache
from tournaments import selectors
from tournaments.audit_chain import ChainCheck, verify_chain
from tournaments.models import Event

# Seconds a check stays in the cache: a public page (and a 10,000-entry log takes 0.4 s to
# hash) is not recomputed for every reader. An append moves the head and so the key; a row
# changed behind the application's back shows at the latest this long after (verify_audit
# never reads the cache).
CHECKED_FOR = 60


@require_GET
def event_verify(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's results log checked: its number of entries, its final digest, and
    whether it is intact (else the first entry that does not match)."""
    event = selectors.public_event(event_id)
    return render(
        request, "scoring/event_verify.html", {"event": event, "check": checked_chain(event)}
    )


class MismatchSerializer(serializers.Serializer):
    id = serializers.IntegerField(
        allow_null=True, help_text="The entry's id; null: entries are missing at the end."
    )
    at = serializers.DateTimeField(allow_null=True, help_text="When the entry was written.")
    action = serializers.CharField(allow_blank=True)
    expected = serializers.CharField(help_text="The digest recomputed from the entry.")
    found = serializers.CharField(help_text="The digest stored.")


class ChainSerializer(serializers.Serializer):
    entries = serializers.IntegerField(help_text="Entries in the event's results log.")
    digest = serializers.CharField(
        help_text="The final digest, recomputed (hex SHA-256; empty for an empty log)."
    )
    intact = serializers.BooleanField()
    first_mismatch = MismatchSerializer(allow_null=True)


def chain_answer(check: ChainCheck) -> dict:
    """What the API answers for a check of the chain."""
    found = check.first_mismatch
    mismatch = None
    if found is not None:
        entry = found.entry
        mismatch = {
            "id": entry.pk if entry else None,
            "at": entry.at if entry else None,
            "action": entry.action if entry else "",
            "expected": found.expected,
            "found": found.found,
        }
    return {
        "entries": check.entries,
        "digest": check.digest,
        "intact": check.intact,
        "first_mismatch": mismatch,
    }


def checked_chain(event: Event) -> dict:
    """The event's chain checked (:func:`chain_answer`), from the cache when it was checked
    less than ``CHECKED_FOR`` seconds ago at the same head."""
    key = f"audit-verify:{event.pk}:{event.audit_digest}"
    answer = cache.get(key)
    if answer is None:
        answer = chain_answer(verify_chain(event))
        cache.set(key, answer, CHECKED_FOR)
    return answer


class EventAuditVerify(APIView):
    """Recompute an event's results log (a hash chain over every audit entry) and say
    whether it is intact: the number of entries, the final digest, the first entry that
    does not match. Public, like the event's page."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=ChainSerializer, summary="Verify an event's results log")
    def get(self, request: Request, event_id: int) -> Response:
        event = selectors.public_event(event_id)
        return Response(ChainSerializer(checked_chain(event)).data)
