"""The Celery worker of ``bench/load.py``: the real one (``celery -A config worker``, the same
arguments as ``_field.WORKER_COMMAND``), plus a stopwatch on every task.

    python bench/_worker.py <task log>

Celery's ``task_prerun`` / ``task_postrun`` signals time each task in the worker itself (the
solo pool runs them in this process) and append one line per run to the task log:
``<unix time at the end> <task name> <seconds> <state>``. Appending a short line costs
microseconds next to a task of milliseconds; nothing of this is in the application.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _field import WORKER_COMMAND  # noqa: E402 (bench/ is the script's folder)


def main() -> None:
    from celery.signals import task_postrun, task_prerun

    from config.celery import app

    log = open(sys.argv[1], "a", buffering=1)  # noqa: SIM115 (open while the worker lives)
    started: dict[str, float] = {}

    @task_prerun.connect(weak=False)
    def _started(task_id=None, **kwargs) -> None:
        started[task_id] = time.perf_counter()

    @task_postrun.connect(weak=False)
    def _finished(task_id=None, task=None, state=None, **kwargs) -> None:
        began = started.pop(task_id, None)
        if began is not None:
            took = time.perf_counter() - began
            log.write(f"{time.time():.3f} {task.name} {took:.6f} {state}\n")

    # Everything after "-A config" in the shared command: worker, --pool solo, ...
    app.worker_main(WORKER_COMMAND[WORKER_COMMAND.index("config") + 1 :])


if __name__ == "__main__":
    main()
