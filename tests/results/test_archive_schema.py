"""The event archive's declared JSON Schema (issue 25 item 4): a real export (the demo night,
played to its champion) is valid against it, and a damaged one is refused with the place of
the first bad value named, as the import's message names it."""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft202012Validator

from core.errors import ServiceError
from results.archive import export_event
from results.archive.json_schema import archive_schema
from results.archive.validate import check_shape
from tests.results.test_archive import demo_night, through_json

__all__ = ["demo_night"]  # the fixture, shared with the round-trip tests
pytestmark = pytest.mark.django_db


def test_the_declared_schema_is_a_valid_draft_2020_12_schema():
    schema = archive_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_accepts_the_demo_night_export(demo_night):
    data = through_json(export_event(demo_night))
    assert data["playoff"] and data["games"] and data["audit"]  # every part is there
    assert list(Draft202012Validator(archive_schema()).iter_errors(data)) == []
    check_shape(data)  # nothing raised


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda d: d["players"][0].update(name="x" * 121),
            "players[0].name should be a text of at most 120 characters",
        ),
        (
            lambda d: d["games"][0]["tables"][0]["result"].update(margin=1.0),
            "games[0].tables[0].result.margin should be a whole number from 1 to 1000",
        ),
        (
            lambda d: d["games"][0]["tables"][0]["result"].pop("winner"),
            "games[0].tables[0].result.winner does not name one of the archive's entries",
        ),
        (lambda d: d["event"].update(muggins=1), "event.muggins should be true or false"),
        (lambda d: d["event"].update(status="lost"), "event.status is not one of the known"),
        (lambda d: d.update(games=[{}] * 41), "games has too many items"),
        (lambda d: d["playoff"].update(matches={}), "playoff.matches should be a list"),
        (lambda d: d["audit"][0].update(reason="\ud800"), "audit[0].reason holds a character"),
    ],
)
def test_a_damaged_export_is_refused_naming_the_place(demo_night, damage, message):
    data = through_json(export_event(demo_night))
    check_shape(copy.deepcopy(data))
    damage(data)
    with pytest.raises(ServiceError) as refused:
        check_shape(data)
    assert refused.value.code == "bad_archive"
    assert f"This is not a valid event archive: {message}" in refused.value.message
