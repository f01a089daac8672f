"""The supervisor story a club copies (docs/deploy/): systemd units that parse and restart
their process, and a Procfile naming the same three processes."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "docs" / "deploy"
UNITS = sorted(DEPLOY.glob("*.service"))


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    return parser


def test_three_units_each_restarting_its_process():
    assert [u.name for u in UNITS] == [
        "pegboard-beat.service",
        "pegboard-web.service",
        "pegboard-worker.service",
    ]
    for path in UNITS:
        service = unit(path)["Service"]
        assert service["Restart"] == "always", path.name
        assert service["ExecStart"].startswith("/srv/pegboard/.venv/bin/"), path.name
        assert service["EnvironmentFile"] == "/etc/pegboard/pegboard.env"


def test_systemd_accepts_the_units(tmp_path):
    """systemd-analyze verify on copies pointing at this checkout (its venv, the example
    environment) and without the ``pegboard`` user, which only a server has."""
    analyze = shutil.which("systemd-analyze")
    require_service("systemd-analyze", analyze is not None, "apt-get install systemd")
    venv = Path(sys.executable).parent.parent
    for path in UNITS:
        text = path.read_text()
        text = text.replace("/srv/pegboard/.venv", str(venv)).replace("/srv/pegboard", str(ROOT))
        text = text.replace("/etc/pegboard/pegboard.env", str(DEPLOY / "pegboard.env.example"))
        lines = [ln for ln in text.splitlines() if not ln.startswith(("User=", "Group="))]
        (tmp_path / path.name).write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [analyze, "verify", *sorted(str(p) for p in tmp_path.glob("*.service"))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@pytest.mark.parametrize("line", (DEPLOY / "Procfile").read_text().splitlines())
def test_the_procfile_runs_programs_the_install_has(line):
    if not line.strip() or line.startswith("#"):
        return
    name, _, command = line.partition(":")
    assert name in {"web", "worker", "beat"}
    program = command.split()[0]
    assert (Path(sys.executable).parent / program).exists(), program
