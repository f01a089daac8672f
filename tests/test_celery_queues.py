"""Celery queues: every Pegboard task lands on a named queue that a plain worker consumes."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery import app

PEGBOARD_PREFIXES = ("pegboard.", "scoring.", "results.", "tournaments.", "games_web.")


def pegboard_tasks() -> list[str]:
    app.loader.import_default_modules()  # autodiscovery is lazy: register every tasks module
    return sorted(name for name in app.tasks if name.startswith(PEGBOARD_PREFIXES))


def routed_queue(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


def test_every_task_routes_to_a_declared_queue():
    declared = {queue.name for queue in settings.CELERY_TASK_QUEUES}
    tasks = pegboard_tasks()
    assert len(tasks) >= 7, tasks  # the registry was really loaded
    stray = {name: routed_queue(name) for name in tasks if routed_queue(name) not in declared}
    assert not stray, f"tasks routed to queues no worker started without -Q consumes: {stray}"


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("scoring.recompute_standings", "standings"),
        ("scoring.sweep_standings", "standings"),
        ("pegboard.ping", "standings"),
        ("results.build_printables", "printables"),
        ("scoring.recompute_season", "seasons"),
        ("scoring.recompute_seasons", "seasons"),
        ("results.run_import", "imports"),
    ],
)
def test_each_kind_of_work_has_its_queue(task, queue):
    assert routed_queue(task) == queue


def test_a_worker_without_dash_q_consumes_every_queue():
    """`make worker` and the tests' workers pass no -Q: they must take every queue."""
    consumed = set(app.amqp.queues.consume_from)
    assert consumed == {"celery", "standings", "printables", "seasons", "imports"}


def test_the_beat_jobs_route_like_their_tasks():
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert routed_queue(entry["task"]) in {"standings", "seasons"}


def test_a_message_reaches_one_queue_only():
    """Distinct routing keys: no queue shares a binding with another (no fan-out)."""
    keys = [queue.routing_key for queue in settings.CELERY_TASK_QUEUES]
    assert len(set(keys)) == len(keys) == 5
