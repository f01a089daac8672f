"""OpenAPI post-processing: error bodies documented as they really are."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

from django.apps import apps

from core.errors import ErrorCode


def service_error_codes() -> list[str]:
    """Every code a service may refuse with: the members of each app's ``error_codes`` enum."""
    for config in apps.get_app_configs():
        module = f"{config.name}.error_codes"
        if find_spec(module) is not None:  # found by name: this module sits below every app
            import_module(module)
    return ErrorCode.every_code()


def open_error_codes(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: a 400's ``code`` and ``attr`` are open strings, not DRF's enums.

    drf-standardized-errors lists only the serializer's own codes per field (``blank``,
    ``invalid``...), but the rules answer with their named codes (``bad_card``,
    ``loser_reached_target``, ``nets_not_zero``) and name nested inputs (``hands.1.cards``),
    so a client that validated against the enums would reject real answers.
    """
    schemas = result.get("components", {}).get("schemas", {})
    for name, component in list(schemas.items()):
        choices = component.get("oneOf", [])
        refs = [c.get("$ref", "") for c in choices]
        if refs and all(ref.endswith("ErrorComponent") for ref in refs):
            # One shape for every error item (a oneOf of open shapes would match them all).
            schemas[name] = {"$ref": "#/components/schemas/FieldError"}
    schemas["FieldError"] = {
        "type": "object",
        "description": "One error: its named code, a message for people, and the input.",
        "properties": {
            "code": {
                "description": "A stable, named code: the serializer's (blank, invalid...) or "
                "the rule's (one of ServiceErrorCode).",
                "anyOf": [{"$ref": "#/components/schemas/ServiceErrorCode"}, {"type": "string"}],
            },
            "detail": {"type": "string"},
            "attr": {
                "type": "string",
                "nullable": True,
                "description": "The input it is about: a field, or a path such as hands.1.cards.",
            },
        },
        "required": ["code", "detail", "attr"],
    }
    schemas["ServiceErrorCode"] = {
        "type": "string",
        "enum": service_error_codes(),
        "description": "Why a service refused the request (tournaments/error_codes.py and the "
        "other apps' error_codes.py). Each is a 400 but unknown_key (404) and throttled (429).",
    }
    for name in [n for n in schemas if n.endswith("ErrorComponent")]:
        del schemas[name]
    return result
