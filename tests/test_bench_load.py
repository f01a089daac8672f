"""The load bench's own pieces: the worker it starts is the project's Celery app, and
bench/wrk_load.lua sends each line of its requests file once and counts refused answers."""

from __future__ import annotations

import shutil
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import require_service

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture
def bench_path(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))


def test_worker_command_names_the_project_celery_app(bench_path):
    from _field import WORKER_COMMAND

    from config.celery import app

    named = WORKER_COMMAND[WORKER_COMMAND.index("-A") + 1]
    assert sys.modules[f"{named}.celery"].app is app


class _Recorder(BaseHTTPRequestHandler):
    seen: list[tuple[str, str, bytes]] = []

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.seen.append((self.command, self.path, body))
        self.send_response(404 if self.path == "/missing" else 200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_GET = do_POST = _answer

    def log_message(self, *args) -> None:  # quiet
        pass


def test_wrk_script_sends_each_line_once_in_order_and_counts_refusals(bench_path, tmp_path):
    from _wrk import run_wrk

    # A skip outside CI; under CI (which installs wrk) a failure.
    require_service("wrk", shutil.which("wrk") is not None, "apt-get install wrk")

    _Recorder.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    lines = [
        "GET\t/a\t\t\t",
        "GET\t/missing\t\t\t",
        'POST\t/report\tapplication/json\tcsrftoken=x\t{"key": "k1"}',
    ]
    requests = tmp_path / "requests.txt"
    requests.write_text("\n".join(lines) + "\n")
    try:
        run = run_wrk(
            f"http://127.0.0.1:{server.server_port}",
            "/",
            clients=1,
            seconds=1,
            requests_file=requests,
        )
    finally:
        server.shutdown()
        server.server_close()

    assert _Recorder.seen[:3] == [
        ("GET", "/a", b""),
        ("GET", "/missing", b""),
        ("POST", "/report", b'{"key": "k1"}'),
    ]
    # Past its last line the script repeats it, and says so (counted when sent: the one
    # still in flight when wrk stops is not among the answered requests).
    assert set(_Recorder.seen[3:]) <= {("POST", "/report", b'{"key": "k1"}')}
    assert run.requests - 3 <= run.exhausted <= run.requests - 3 + 1
    assert run.errors == {404: 1}
