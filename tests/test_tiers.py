"""The test tiers and the lock: what `make test` and `make install` rely on."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

from tests.conftest import SERVICE_MODULES, SLOW_MODULES, TESTS_DIR

ROOT = TESTS_DIR.parent


def test_every_module_named_in_a_tier_exists():
    """A renamed slow module would otherwise fall silently into the fast tier."""
    missing = sorted(m for m in SLOW_MODULES | SERVICE_MODULES if not (TESTS_DIR / m).is_file())
    assert missing == []


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", Requirement(requirement).name).lower()


def _locked(path: Path) -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", path.read_text(), re.M)
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in pins}


def test_the_lock_pins_every_dependency_of_pyproject_with_hashes():
    """A dependency added to pyproject.toml without `make lock` is not installed by
    `make install` (pip --require-hashes installs the lock only)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for lock, extras in (("dev.txt", ["dev"]), ("bench.txt", ["dev", "bench"])):
        text = (ROOT / "requirements" / lock).read_text()
        locked = _locked(ROOT / "requirements" / lock)
        wanted = project["dependencies"] + [
            r for extra in extras for r in project["optional-dependencies"][extra]
        ]
        missing = sorted({_name(r) for r in wanted} - set(locked))
        assert missing == [], f"run `make lock`: {lock} lacks {missing}"
        for requirement in wanted:
            spec = Requirement(requirement).specifier
            assert spec.contains(locked[_name(requirement)], prereleases=True), requirement
        blocks = re.split(r"\n(?=\S)", text)  # one pinned package and its hashes a block
        unhashed = [b.split()[0] for b in blocks if "==" in b and "--hash=sha256:" not in b]
        assert unhashed == []
