"""The open-loop row of ``bench/load.py``: commit -> published snapshot while RATE confirming
reports a second arrive.

It stays a small asyncio client (aiohttp), not wrk: an open loop sends on a clock whatever the
answers do (wrk is closed-loop: each connection waits for its answer), and at 100 requests a
second the client costs a few % of one core. The bench prints the rate it achieved, so a
client that could not keep up shows as such.
"""

from __future__ import annotations

import asyncio
import threading
import time

from _field import percentile
from _load_setup import DB_NAME, PG, REPORT_API, Report, api_body


def included_results(event_id: int, conn, baseline_wins: int) -> int:
    """How many of the open games' results the latest published snapshot counts."""
    row = conn.execute(
        """SELECT COALESCE(SUM(s.games_won), 0) FROM scoring_standing s
            WHERE s.snapshot_id = (SELECT id FROM scoring_standingssnapshot
                                    WHERE event_id = %s ORDER BY after_game DESC LIMIT 1)""",
        [event_id],
    ).fetchone()
    return int(row[0]) - baseline_wins


async def _post(session, base: str, item: Report) -> tuple[int, float]:
    """The report's status and answer time; status 0 when the connection failed (a server
    that cannot keep up overflows its listen backlog and resets connections)."""
    import aiohttp

    sent = time.perf_counter()
    try:
        async with session.post(base + REPORT_API, json=api_body(item)) as response:
            await response.read()
            return response.status, time.perf_counter() - sent
    except (TimeoutError, aiohttp.ClientError, OSError):
        return 0, time.perf_counter() - sent


async def commit_to_snapshot(base: str, event, items: list[Report], rate: float, seconds: float):
    """RATE confirming reports a second for SECONDS (their first halves sent before, 20 at a
    time); for each, the time from its answer (the commit is before it) to the first
    published snapshot that counts it, polled in the database every 10 ms (the public pages
    render that snapshot on their next request)."""
    import aiohttp
    import psycopg

    from tournaments.models import GameResult

    baseline_wins = GameResult.objects.filter(table__round__event=event).count()
    firsts = [i for i in items if i.winner == "me"]
    confirming = {(i.game, i.table): i for i in items if i.winner == "opponent"}
    chosen = firsts[: min(len(firsts), int(rate * seconds))]

    connector = aiohttp.TCPConnector(limit=400)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        queue = list(chosen)

        async def first_halves():
            while queue:
                await _post(session, base, queue.pop())

        await asyncio.gather(*(first_halves() for _ in range(20)))

        seen: list[tuple[float, int]] = []
        done = threading.Event()

        def poll():
            with psycopg.connect(f"{PG}/{DB_NAME}", autocommit=True) as conn:
                while not done.is_set():
                    found = included_results(event.pk, conn, baseline_wins)
                    seen.append((time.perf_counter(), found))
                    time.sleep(0.01)

        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        answered: list[float] = []
        waited: list[float] = []  # each confirming report's own response time
        failures = 0

        async def confirm(item: Report):
            nonlocal failures
            status, took = await _post(session, base, item)
            if status >= 400 or status == 0:
                failures += 1
            else:
                answered.append(time.perf_counter())
                waited.append(took)

        tasks = []
        start = time.perf_counter()
        for n, first in enumerate(chosen):
            await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
            tasks.append(asyncio.create_task(confirm(confirming[(first.game, first.table)])))
        sent_for = time.perf_counter() - start
        await asyncio.gather(*tasks)
        answered_for = time.perf_counter() - start
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and (not seen or seen[-1][1] < len(answered)):
        await asyncio.sleep(0.05)
    done.set()
    poller.join()
    answered.sort()
    latencies = []
    for k, at in enumerate(answered, start=1):
        shown = next((t for t, n in seen if t >= at and n >= k), None)
        if shown is not None:
            latencies.append(shown - at)
    return {
        "offered_per_second": rate,
        # Sent: the client's own pace (it fell behind if below the offered rate); answered:
        # the confirmations answered per second from the first sent to the last answered.
        "sent_per_second": round(len(chosen) / sent_for, 1) if sent_for else 0.0,
        "achieved_per_second": round(len(answered) / answered_for, 1),
        "confirmed": len(answered),
        "failed": failures,
        "never_shown": len(answered) - len(latencies),
        "p50_seconds": round(percentile(latencies, 50), 3),
        "p95_seconds": round(percentile(latencies, 95), 3),
        "report_p50_ms": round(percentile(waited, 50) * 1000, 1),
        "report_p95_ms": round(percentile(waited, 95) * 1000, 1),
    }
