"""Benchmark a record's history and what migration 0028's revision trigger adds to writes.

Reads: records with 10, 100 and 1,000 revisions (inserted as the write paths insert them,
through the trigger), and the history use case (`review.timeline.record_history`, the HTTP
route's, MCP tool's and dashboard's) asked for its newest page of 50 and for a page deep in
the history (a cursor near the first revision). Writes: single-row revision inserts, one
statement each, with the fill trigger on and off in alternating rounds so the machine's
load falls on both alike.
Run: `python benchmarks/bench_history.py [--reads 300] [--inserts 2000] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, make_caller, peak_rss_mb, percentile, services
from _tables import table_console
from psycopg.types.json import Jsonb
from rich.table import Table

from memwarden.domain.ids import new_id
from memwarden.review.timeline import record_history

LENGTHS = (10, 100, 1000)
PAGE = 50


async def _record(svc: Any, context_id: Any, revisions: int) -> Any:
    """A note with `revisions` revisions: each an update of the row, then its revision."""
    rid = new_id()
    async with svc.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
            " author_subject) VALUES (%s, %s, 'note', 'bench', %s, 'v', 'bench')",
            (context_id, rid, Jsonb({"text": "v"})),
        )
        for n in range(1, revisions + 1):
            if n > 1:
                await conn.execute(
                    "UPDATE memory_record SET revision = %s WHERE context_id = %s AND id = %s",
                    (n, context_id, rid),
                )
            await conn.execute(
                "INSERT INTO memory_revision (context_id, record_id, revision, op, content,"
                " actor_subject) VALUES (%s, %s, %s, %s, %s, 'bench')",
                (context_id, rid, n, "create" if n == 1 else "update", Jsonb({"text": f"v{n}"})),
            )
    return rid


async def reads(svc: Any, caller: Any, rid: Any, length: int, n: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    pages: list[tuple[str, str | None]] = [("newest page", None)]
    if length > PAGE:
        pages.append(("deep page", str(max(2, length // 10))))  # near the first revision
    for label, cursor in pages:
        ms = []
        t_all = time.perf_counter()
        for _ in range(n):
            t0 = time.perf_counter()
            await record_history(svc.db, caller, caller.context_id, rid, cursor=cursor, limit=PAGE)
            ms.append((time.perf_counter() - t0) * 1000)
        elapsed = time.perf_counter() - t_all
        out[label] = {
            "per_s": round(n / elapsed, 1),
            **{f"p{q}_ms": round(percentile(ms, q), 2) for q in (50, 95, 99)},
        }
    return out


async def insert_cost(svc: Any, context_id: Any, inserts: int) -> dict[str, float]:
    """Revision inserts with the trigger on and off (the cause then given, as a writer
    without the trigger would have to)."""
    rid = await _record(svc, context_id, 1)
    timings: dict[bool, list[float]] = {True: [], False: []}
    revision = 1
    for _ in range(4):
        for on in (True, False):
            switch = "ENABLE" if on else "DISABLE"
            async with svc.db.connection() as conn:
                await conn.execute(
                    f"ALTER TABLE memory_revision {switch} TRIGGER memory_revision_fill"
                )
                for _ in range(inserts // 8):
                    revision += 1
                    t0 = time.perf_counter()
                    await conn.execute(
                        "INSERT INTO memory_revision (context_id, record_id, revision, op,"
                        " content, actor_subject, cause)"
                        " VALUES (%s, %s, %s, 'update', %s, 'bench', %s)",
                        (
                            context_id,
                            rid,
                            revision,
                            Jsonb({"text": "x"}),
                            None if on else "correction",
                        ),
                    )
                    timings[on].append((time.perf_counter() - t0) * 1000)
    async with svc.db.connection() as conn:
        await conn.execute("ALTER TABLE memory_revision ENABLE TRIGGER memory_revision_fill")
    return {
        f"{'on' if on else 'off'}_p{q}_ms": round(percentile(values, q), 3)
        for on, values in timings.items()
        for q in (50, 95, 99)
    }


async def run(n_reads: int, inserts: int) -> dict[str, Any]:
    async with services() as svc:
        caller = await make_caller(svc, "history")
        rows = []
        for length in LENGTHS:
            STDERR.print(f"a record with {length:,} revisions")
            rid = await _record(svc, caller.context_id, length)
            for label, figures in (await reads(svc, caller, rid, length, n_reads)).items():
                rows.append({"revisions": length, "read": label, **figures})
        STDERR.print(f"{inserts:,} revision inserts, trigger on and off")
        writes = await insert_cost(svc, caller.context_id, inserts)
    return {"reads": rows, "inserts": writes, "peak_rss_mb": round(peak_rss_mb(), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--inserts", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.reads, args.inserts))
    if args.json:
        print(json.dumps(result))
        return
    table = Table(title=f"GET .../memories/{{id}}/history use case, pages of {PAGE}")
    for name in ("revisions", "read", "per s", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(name, justify="right")
    for r in result["reads"]:
        table.add_row(
            f"{r['revisions']:,}",
            r["read"],
            str(r["per_s"]),
            str(r["p50_ms"]),
            str(r["p95_ms"]),
            str(r["p99_ms"]),
        )
    table_console().print(table)
    w = result["inserts"]
    writes = Table(title="One revision insert (ms): the 0028 fill trigger on and off")
    for name in ("trigger", "p50", "p95", "p99"):
        writes.add_column(name, justify="right")
    for on in ("on", "off"):
        writes.add_row(on, *(str(w[f"{on}_p{q}_ms"]) for q in (50, 95, 99)))
    table_console().print(writes)
    table_console().print(f"peak RSS {result['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
