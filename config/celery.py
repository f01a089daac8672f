"""The Celery app. Tasks are thin: each calls a service (HackSoft styleguide)."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.beat import PersistentScheduler
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pegboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)

# A worker that loses Redis while holding unacknowledged (acks_late) messages closes its
# channel, and kombu then tries to put those messages back through the connection that is
# already gone: AttributeError ('NoneType' object has no attribute 'hostname'), an
# "Unrecoverable error", and the worker exits for good. The messages stay in Redis's unacked
# index either way (the transport restores them after the visibility timeout), so the restore
# at close may give up quietly and let the worker reconnect instead of dying.
_restore_unacked = kombu_redis.QoS.restore_unacked


def _restore_unacked_or_leave_them(self: kombu_redis.QoS, client: Any = None) -> Any:
    try:
        return _restore_unacked(self, client)
    except (AttributeError, OSError, kombu_redis.redis.RedisError) as exc:
        log.warning("broker gone while restoring unacked messages (%s): left for later", exc)
        return None


kombu_redis.QoS.restore_unacked = _restore_unacked_or_leave_them  # type: ignore[method-assign]

# The same outage seen from the other side: a task that finishes after Redis went away acks
# (acks_late) on the channel kombu has already closed, whose ``connection`` is None, and the
# transport's ``self.connection.client`` raises AttributeError ('NoneType' object has no
# attribute 'client'). Celery takes only the transport's connection errors for an outage to
# reconnect from; anything else is "Unrecoverable" and the worker exits for good. So a closed
# channel says what it is: a connection error. The unacked message stays in Redis's index and
# comes back after the visibility timeout (every task here is safe to run twice).
_connparams = kombu_redis.Channel._connparams


def _connparams_or_connection_error(self: kombu_redis.Channel, asynchronous: bool = False) -> Any:
    if self.connection is None:
        raise kombu_redis.redis.ConnectionError("the broker channel is closed (Redis went away)")
    return _connparams(self, asynchronous)


kombu_redis.Channel._connparams = _connparams_or_connection_error  # type: ignore[method-assign]


# Celery retries a lost broker with kombu's fixed back-off (2, 4, 6 ... up to 30 s between
# tries), in the worker and in beat alike: a worker that lost Redis for a minute came back up to
# 14 s after Redis did, and beat, which sends the standings sweep, as late again. A try is one
# TCP connect: every 2 s at most costs nothing.
BROKER_RETRY = {"interval_start": 1, "interval_step": 1, "interval_max": 2}


class Consumer(CeleryConsumer):
    """The worker's consumer (``worker_consumer``): retries a lost broker every 2 s at most,
    and once back after an outage sends the standings sweep at once (the results committed
    meanwhile could not send their runs; a worker that starts does the same)."""

    def ensure_connected(self, conn: Any) -> Any:
        ensure = conn.ensure_connection
        conn.ensure_connection = lambda *a, **kw: ensure(*a, **(BROKER_RETRY | kw))
        return super().ensure_connected(conn)

    def connect(self) -> Any:
        back = not self.first_connection_attempt  # the first is the start: worker_ready's
        connection = super().connect()
        if back:
            try:
                self.app.send_task("scoring.sweep_standings", kwargs={"worker_started": True})
            except Exception as exc:  # the broker's own errors: beat's sweep comes next
                log.warning("could not send the catch-up sweep after an outage (%s)", exc)
        return connection


class Scheduler(PersistentScheduler):
    """Beat's scheduler (``beat_scheduler``): retries a lost broker every 2 s at most."""

    def _ensure_connected(self) -> Any:
        def _error_handler(exc: Exception, interval: float) -> None:
            log.error("beat: connection error: %s; trying again in %s s", exc, interval)

        return self.connection.ensure_connection(
            _error_handler, self.app.conf.broker_connection_max_retries, **BROKER_RETRY
        )
