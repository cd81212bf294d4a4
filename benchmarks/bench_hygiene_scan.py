"""What one hygiene scan subject costs: time and SQL statements per subject, at a Context
of 10k (and, given time, 100k) memories.

Memories are bulk-loaded (COPY) into one Context with clustered synthetic 384-d vectors
(tight clusters, so each subject has neighbours inside the default band 0.70..1.00), then
`hygiene.scan.scan_subject` runs for a sample of subjects on the offline adjudicator (no
model call: the cost measured is hygiene's own, per subject: its row, its neighbour scan,
and its judged pairs' records and routed outcomes, in one transaction).
Statements are counted by wrapping psycopg's execute (benchmark only).
Run: `python benchmarks/bench_hygiene_scan.py [--sizes 10000,100000] [--subjects 200] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
from _harness import STDERR, make_caller, percentile, services
from _tables import table_console
from psycopg.types.json import Jsonb
from rich.table import Table

from memwarden.config import ContextConfig
from memwarden.domain.ids import new_id
from memwarden.hygiene.scan import Cycle, scan_subject

DIM = 384
CLUSTER = 150  # memories per cluster: each subject finds neighbours in the band
STATEMENTS = {"n": 0}
COPY_TYPES = ["uuid", "uuid", "text", "text", "jsonb", "text", "text", "text", "int4", "vector"]
COPY_TYPES.append("int4")


def _count(cls: Any, name: str) -> None:
    original = getattr(cls, name)

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        STATEMENTS["n"] += 1
        return await original(self, *args, **kwargs)

    setattr(cls, name, counted)


_count(psycopg.AsyncConnection, "execute")
_count(psycopg.AsyncCursor, "execute")


def unit(a: np.ndarray) -> np.ndarray:
    return a / np.linalg.norm(a, axis=1, keepdims=True)


async def load(svc: Any, size: int, np_rng: Any) -> Any:
    caller = await make_caller(svc, f"hygiene-{size}")
    centres = unit(np_rng.standard_normal((max(1, size // CLUSTER), DIM)).astype(np.float32))
    picks = np_rng.integers(0, len(centres), size)
    vectors = unit(centres[picks] + np_rng.standard_normal((size, DIM)).astype(np.float32) * 0.02)
    ids = [new_id() for _ in range(size)]
    async with svc.db.connection() as conn, conn.cursor() as cur:
        async with cur.copy(
            "COPY memory_record (context_id, id, kind, owner_subject, content, body, "
            "author_subject, source_kind, provenance_rank, embedding, embedding_revision) "
            "FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(COPY_TYPES)
            for n, (rid, vec) in enumerate(zip(ids, vectors, strict=True)):
                await copy.write_row(
                    (
                        caller.context_id,
                        rid,
                        "note",
                        "bench",
                        Jsonb({"text": f"memory {n}"}),
                        f"memory {n}",
                        "bench",
                        "turn",
                        1,
                        vec.tolist(),
                        1,
                    )
                )
        await conn.execute("ANALYZE memory_record")
    return caller, ids


async def measure(size: int, subjects: int) -> dict[str, Any]:
    np_rng = np.random.default_rng(11)
    async with services() as svc:
        caller, ids = await load(svc, size, np_rng)
        cycle = Cycle(svc, caller.context_id, new_id(), ContextConfig())
        cycle.config.hygiene.max_queue_rows_per_run = 10**4
        sample = [ids[i] for i in np_rng.choice(len(ids), subjects, replace=False)]
        times: list[float] = []
        per_subject: list[int] = []
        for rid in sample:
            before = STATEMENTS["n"]
            start = time.perf_counter()
            await scan_subject(cycle, rid)
            times.append((time.perf_counter() - start) * 1000)
            per_subject.append(STATEMENTS["n"] - before)
    pairs = cycle.counts["pairs_judged"]
    return {
        "memories": size,
        "subjects": subjects,
        "pairs_per_subject": round(pairs / subjects, 2),
        "ms_p50": round(percentile(times, 50), 2),
        "ms_p95": round(percentile(times, 95), 2),
        "statements_per_subject": round(sum(per_subject) / subjects, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--subjects", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        STDERR.print(f"scanning {args.subjects} subjects at {size:,} memories")
        rows.append(asyncio.run(measure(size, args.subjects)))
    if args.json:
        print(json.dumps(rows))
        return
    table = Table(title="hygiene scan cost per subject (offline adjudicator)")
    for column in rows[0]:
        table.add_column(column)
    for row in rows:
        table.add_row(*(str(v) for v in row.values()))
    table_console().print(table)


if __name__ == "__main__":
    main()
