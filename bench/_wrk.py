"""wrk as ``bench/load.py`` drives it: one timed run of one row, read back from the one line
of JSON that ``bench/wrk_load.lua`` prints."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

LUA = Path(__file__).resolve().parent / "wrk_load.lua"


@dataclass
class WrkRun:
    """One wrk run: requests answered in ``seconds``, bytes read, latency percentiles, and
    the answers outside 2xx/3xx by status (plus wrk's socket errors as status 0)."""

    requests: int
    seconds: float
    bytes: int
    p50: float  # seconds
    p95: float
    errors: dict[int, int] = field(default_factory=dict)
    exhausted: int = 0

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def wire(self) -> float:
        """Bytes read per answer, headers included (gzipped where the row asks for it)."""
        return self.bytes / self.requests if self.requests else 0.0


def wrk_path() -> str:
    """wrk's path, or a clear exit (``make bench-load`` installs it: Debian's ``wrk``)."""
    found = shutil.which("wrk")
    if found is None:
        raise SystemExit("wrk not found: apt-get install wrk (make bench-load does it)")
    return found


def run_wrk(
    base: str,
    path: str,
    *,
    clients: int,
    seconds: float,
    headers: dict[str, str] | None = None,
    requests_file: Path | None = None,
) -> WrkRun:
    """``clients`` connections for ``seconds`` on one wrk thread (wrk's one thread keeps
    hundreds of connections busy at a few % of a core: the server keeps the rest). With
    ``requests_file`` each request is the file's next line, else a GET of ``path``."""
    command = [
        wrk_path(),
        "-t1",
        f"-c{clients}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "30s",
        "-s",
        str(LUA),
    ]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    command += [base + path, "--", str(requests_file or ""), "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    line = next((x for x in done.stdout.splitlines() if x.startswith("WRK-JSON ")), None)
    if line is None:
        raise SystemExit(f"wrk failed ({done.returncode}): {done.stdout}\n{done.stderr}")
    found = json.loads(line.removeprefix("WRK-JSON "))
    errors = {int(code): n for code, n in found["statuses"].items()}
    if found["socket_errors"]:
        errors[0] = found["socket_errors"]
    return WrkRun(
        requests=found["requests"],
        seconds=found["duration_us"] / 1e6,
        bytes=found["bytes"],
        p50=found["p50_us"] / 1e6,
        p95=found["p95_us"] / 1e6,
        errors=errors,
        exhausted=found["exhausted"],
    )
