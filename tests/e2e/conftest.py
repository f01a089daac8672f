"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

No browser is ever downloaded: the tests launch ``/usr/bin/chromium`` (``CHROMIUM=...`` to
point elsewhere). Without it they skip locally and fail under CI=true, like the service tests.
Every page a journey opens is checked with axe-core (no serious or critical violation) and
for browser console errors.
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from tests.conftest import require_service

# Playwright's sync API marks an asyncio loop as running in the main thread for the rest of
# the session, and Django then refuses ORM calls made from it (SynchronousOnlyOperation),
# in these tests and in any test that runs after them. The tests are synchronous: nothing
# actually runs concurrently on that loop.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
EXPECT_TIMEOUT_MS = 15_000  # a poll every 4 s, on a 2-core machine running other work
SEVERE = {"serious", "critical"}
SCREENSHOTS = os.environ.get("E2E_SCREENSHOTS", "")
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


def _live_server_address() -> None:
    """Pick the live server's port from TEST_PORTS=lo-hi (a shared machine's range), unless
    --liveserver or DJANGO_LIVE_TEST_SERVER_ADDRESS already says where."""
    if os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "-" not in os.environ.get(
        "TEST_PORTS", ""
    ):
        return
    low, _, high = os.environ["TEST_PORTS"].partition("-")
    for port in range(int(low), int(high) + 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        os.environ["DJANGO_LIVE_TEST_SERVER_ADDRESS"] = f"127.0.0.1:{port}"
        return


_live_server_address()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch the system Chromium, headless; never a browser build Playwright downloads."""
    require_service("Chromium", Path(CHROMIUM).is_file(), f"apt-get install chromium; {CHROMIUM}")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        # /dev/shm is small in containers; Chromium then uses /tmp instead of crashing tabs.
        "args": ["--disable-dev-shm-usage"],
    }


@pytest.fixture(params=[PHONE, LAPTOP], ids=["phone", "laptop"])
def viewport(request: pytest.FixtureRequest) -> dict:
    """Every journey runs at a phone's size and at a laptop's."""
    return request.param


@dataclass
class Checks:
    """What the browser reported while a test ran: console errors and axe's findings."""

    name: str = ""
    console_errors: list[str] = field(default_factory=list)
    axe_findings: list[str] = field(default_factory=list)
    pages_checked: list[str] = field(default_factory=list)
    axe: Axe = field(default_factory=Axe)

    def watch(self, page: Page) -> Page:
        """Collect the page's console errors and uncaught exceptions."""

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.console_errors.append(f"{page.url}: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"{page.url}: {error}"))
        return page

    def a11y(self, page: Page, label: str = "") -> None:
        """Run axe-core on the page as it is now; serious and critical findings are kept."""
        results = axe_run(self.axe, page)
        where = label or page.url
        self.pages_checked.append(where)
        if SCREENSHOTS:  # E2E_SCREENSHOTS=dir: what each checked page looked like, to look at
            slug = re.sub(r"[^\w-]+", "-", f"{self.name}-{where}").strip("-")
            page.screenshot(path=str(Path(SCREENSHOTS) / f"{slug}.png"), full_page=True)
        for violation in results.response["violations"]:
            if violation.get("impact") in SEVERE:
                nodes = violation["nodes"][:5]
                targets = [", ".join(node["target"]) for node in nodes]
                # axe's own account (the colours and ratio it measured), to diagnose a failure
                # seen once in CI without running it again.
                why = "; ".join(
                    " ".join(node.get("failureSummary", "").split()) for node in nodes[:2]
                )
                self.axe_findings.append(
                    f"{where}: {violation['impact']} {violation['id']}: {violation['help']} "
                    f"at {targets} ({why})"
                )


# Every finite CSS transition or animation has ended (Bootstrap's spinners run for ever).
SETTLED_JS = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || !isFinite(a.effect.getComputedTiming().endTime))"""


def axe_run(axe: Axe, page: Page):
    """axe.run, after the page has settled: an HTMX swap in flight changes what axe sees, and
    a button caught in its 0.15 s colour transition (a radio just clicked) measures 1.66:1
    where it rests at 4.5:1 (seen in CI on a busy machine)."""
    page.wait_for_load_state("load")
    page.wait_for_function(SETTLED_JS, timeout=EXPECT_TIMEOUT_MS)
    return axe.run(page)


@pytest.fixture
def checks(request: pytest.FixtureRequest) -> Iterator[Checks]:
    """The console and axe findings of one test; it fails if there are any."""
    found = Checks(name=request.node.name)
    yield found
    problems = [*found.console_errors, *found.axe_findings]
    assert not problems, "\n".join(problems)


@pytest.fixture
def open_page(
    new_context: Callable[..., BrowserContext], viewport: dict, checks: Checks, live_server
) -> Callable[[], Page]:
    """A new browser (its own cookies) at this test's viewport, watched for console errors;
    each call is another person: a player, their opponent, the TD."""

    def make() -> Page:
        context = new_context(viewport=viewport, base_url=live_server.url, locale="en")
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        return checks.watch(context.new_page())

    return make
