"""Benchmark the dashboard's server time per page at a given number of memories.

Memories are bulk-loaded like bench_query (spread over `--contexts` Contexts), plus
`--judgements` review-log entries in the measured Context (a mix of verdicts and reasons
over the last 30 days). Each page is then fetched `--rounds` times in process (httpx over
ASGI: routing, session, use cases, SQL and templates; no network), signed in with a real
key of that Context.
Run: `python benchmarks/bench_dashboard.py [--sizes 10000,100000] [--rounds 30] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, percentile, services
from _tables import table_console
from bench_query import load
from rich.table import Table

from memwarden.admin.keys import create_key
from memwarden.api.app import create_app
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id

PAGES = {
    "overview": "",
    "judgements": "/judgements",
    "judgements (fail)": "/judgements?verdict=fail",
    "judgements (source)": "/judgements?source=chat",
    "judgement": "/judgements/{judgement}",
    "record": "/memories/{record}?visibility=shared",
    "documents": "/documents",
    "audit log": "/audit",
    "audit log (action)": "/audit?action=key.",
    "hygiene queue": "/hygiene",
    "hygiene (resolved)": "/hygiene?status=resolved",
    "settings": "/settings",
}
SOURCES = ("facts", "facts", "facts_batch", "chat", "document")
REASONS = ("payment_card", "credential", "personal_data", "policy")


async def add_judgements(svc: Any, context_id: Any, count: int, rng: random.Random) -> Any:
    now = datetime.now(UTC)
    last = None
    async with svc.db.transaction() as conn, conn.cursor() as cur:
        for _ in range(count):
            last = new_id()
            verdict = rng.choice(("pass", "pass", "warn", "fail"))
            reasons = [] if verdict == "pass" else [rng.choice(REASONS)]
            await cur.execute(
                "INSERT INTO judgement (context_id, id, gate, verdict, reasons, source, excerpt,"
                " created_at) VALUES (%s, %s, 'input', %s, %s, %s, 'bench excerpt', %s)",
                (
                    context_id,
                    last,
                    verdict,
                    reasons,
                    rng.choice(SOURCES),
                    now - timedelta(minutes=rng.randint(0, 30 * 24 * 60)),
                ),
            )
    return last


async def measure(size: int, contexts: int, judgements: int, rounds: int) -> list[dict[str, Any]]:
    rng, np_rng = random.Random(7), np.random.default_rng(7)
    async with services() as svc:
        loaded = await load(svc, size, contexts, rng, np_rng)
        caller, records, _ = loaded[0]
        judgement = await add_judgements(svc, caller.context_id, judgements, rng)
        admin = Caller(None, None, "admin", None, {}, is_admin=True)
        issued = await create_key(
            svc.db,
            admin,
            caller.context_id,
            subject="bench",
            grants=["memory_read", "memory_write", "memory_review", "grant:manage"],
        )
        app = create_app(svc)
        word = records[0][1].split()[0]
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            form = await client.get("/ui/sign-in")
            pre = re.search(r'name="pre" value="([^"]+)"', form.text)
            assert pre
            signed = await client.post(
                "/ui/sign-in", data={"pre": pre.group(1), "credential": issued["key"]}
            )
            assert signed.status_code == 303, signed.text
            rows = []
            for name, path in PAGES.items():
                url = f"/ui/c/{caller.context_id}" + path.format(
                    judgement=judgement, record=records[0][0], word=word
                )
                times = []
                for _ in range(rounds + 2):
                    started = time.perf_counter()
                    resp = await client.get(url)
                    times.append((time.perf_counter() - started) * 1000)
                    assert resp.status_code == 200, (name, resp.status_code, resp.text[:300])
                rows.append(summary(size, name, times[2:]))  # two warm-up rounds
            page = await client.get(f"/ui/c/{caller.context_id}/memories")
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token
            times = []
            for _ in range(rounds + 2):  # the search form is a POST
                started = time.perf_counter()
                resp = await client.post(
                    f"/ui/c/{caller.context_id}/memories",
                    data={"csrf": token.group(1), "q": word},
                )
                times.append((time.perf_counter() - started) * 1000)
                assert resp.status_code == 200, resp.text[:300]
            rows.append(summary(size, "memories (search)", times[2:]))
    return rows


def summary(size: int, page: str, times: list[float]) -> dict[str, Any]:
    return {
        "size": size,
        "page": page,
        "p50_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
        "max_ms": max(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--contexts", type=int, default=10)
    parser.add_argument("--judgements", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for size in (int(s) for s in args.sizes.split(",")):
        STDERR.print(f"== {size:,} memories")
        rows += asyncio.run(measure(size, args.contexts, args.judgements, args.rounds))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    table = Table(title="Dashboard server time per page (in process, signed in)")
    for col in ("memories", "page", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right" if col != "page" else "left")
    for r in rows:
        table.add_row(
            f"{r['size']:,}",
            r["page"],
            f"{r['p50_ms']:.1f}",
            f"{r['p95_ms']:.1f}",
            f"{r['max_ms']:.1f}",
        )
    table_console().print(table)


if __name__ == "__main__":
    main()
