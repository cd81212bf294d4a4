"""Benchmark recall as of a past moment against the same recall now.

One Context per size is bulk-loaded (COPY) with synthetic bodies and clustered 384-d
vectors; then a share of its records is corrected (a new revision, so its old state is kept
in memory_record_past by the 0029 trigger) and a share superseded. The /query service call
(hybrid, the query's vector supplied, limit 10) and /state run now, as of a moment before
the changes, and as of one after them. An as_of read scans the Context's rows and their kept
states exactly (no index knows a past state), so its cost grows with the Context; the table
gives that cost next to the indexed read of now.
Run: `python benchmarks/bench_as_of.py [--sizes 1000,10000] [--queries 200] [--changed 0.3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, make_caller, peak_rss_mb, percentile, services
from _tables import table_console
from psycopg.types.json import Jsonb
from rich.table import Table

from memwarden.domain.ids import new_id
from memwarden.retrieval.indexing import index_large_contexts
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.state import get_state

DIM = 384
KINDS = ("attribute", "relation", "action", "instruction")
RECORD_TYPES = ["uuid", "uuid", "text", "text", "text", "jsonb", "text", "text", "text"]
RECORD_TYPES += ["vector", "int4"]


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def words(rng: random.Random, n: int = 4000) -> list[str]:
    """A synthetic vocabulary (syllables), drawn from with a Zipf-like weight."""
    syllables = ["ka", "lo", "mi", "ren", "tos", "vu", "shi", "dar", "pel", "qua", "nor", "bi"]
    return ["".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(n)]


async def load(svc: Any, size: int, changed: float, rng: random.Random, np_rng: Any) -> dict:
    vocab = words(rng)
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    caller = await make_caller(svc, f"as-of-{size}")
    cid = caller.context_id
    ids = [new_id() for _ in range(size)]
    bodies = [" ".join(rng.choices(vocab, weights, k=rng.randint(6, 20))) for _ in ids]
    centres = unit(np_rng.standard_normal((64, DIM)).astype(np.float32))
    noise = np_rng.standard_normal((size, DIM)).astype(np.float32) * 0.06
    vectors = unit(centres[np_rng.integers(0, len(centres), size)] + noise)
    async with svc.db.connection() as conn, conn.cursor() as cur:
        async with cur.copy(
            "COPY memory_record (context_id, id, kind, memory_category, owner_subject, "
            "content, body, author_subject, source_kind, embedding, embedding_revision) "
            "FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(RECORD_TYPES)
            for rid, body, vec in zip(ids, bodies, vectors, strict=True):
                row = (cid, rid, rng.choice(KINDS), "knowledge", "bench", Jsonb({"text": body}))
                await copy.write_row((*row, body, "bench", "turn", vec, 1))
        async with cur.copy(
            "COPY memory_embedding (context_id, record_id, revision, embedding, model) "
            "FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(["uuid", "uuid", "int4", "vector", "text"])
            for rid, vec in zip(ids, vectors, strict=True):
                await copy.write_row((cid, rid, 1, vec, "synthetic"))
        await cur.execute("VACUUM ANALYZE")
        time.sleep(0.05)
        before = datetime.now(UTC)
        time.sleep(0.05)
        picked = rng.sample(ids, int(size * changed))
        half = len(picked) // 2
        # corrections: a new revision with new text and its vector (kept per revision in
        # memory_embedding); supersedes: retired by another record, as reconciliation does
        await cur.execute(
            "UPDATE memory_record SET body = body || ' corrected', revision = revision + 1, "
            "embedding_revision = revision + 1, modified_at = now() "
            "WHERE context_id = %s AND id = ANY(%s)",
            (cid, picked[:half]),
        )
        await cur.execute(
            "INSERT INTO memory_embedding (context_id, record_id, revision, embedding, model) "
            "SELECT context_id, id, revision, embedding, 'synthetic' FROM memory_record "
            "WHERE context_id = %s AND id = ANY(%s)",
            (cid, picked[:half]),
        )
        await cur.execute(
            "UPDATE memory_record SET serving = 'superseded', valid_to = now(), "
            "superseded_by = %s, revision = revision + 1, embedding = NULL, "
            "embedding_revision = NULL, modified_at = now() "
            "WHERE context_id = %s AND id = ANY(%s)",
            (ids[0], cid, picked[half:]),
        )
        await cur.execute("VACUUM ANALYZE")
    time.sleep(0.05)
    after = datetime.now(UTC)
    await index_large_contexts(svc.db)
    return {"caller": caller, "bodies": bodies, "vectors": vectors, "at": (before, after)}


async def measure(svc: Any, data: dict, queries: int, rng: random.Random, np_rng: Any) -> dict:
    caller, bodies, vectors = data["caller"], data["bodies"], data["vectors"]
    before, after = data["at"]
    moments: dict[str, datetime | None] = {"now": None, "as_of before": before}
    moments["as_of after"] = after
    out: dict[str, dict[str, float]] = {}
    for label, moment in moments.items():
        query_ms, state_ms = [], []
        started = time.perf_counter()
        for _ in range(queries):
            target = rng.randrange(len(bodies))
            text = " ".join(rng.sample(bodies[target].split(), 3))
            noisy = vectors[target] + np_rng.standard_normal(DIM).astype(np.float32) * 0.05
            req = QueryInput(text, vector=(noisy / np.linalg.norm(noisy)).tolist(), as_of=moment)
            t0 = time.perf_counter()
            await run_query(svc, caller, caller.context_id, req)
            query_ms.append((time.perf_counter() - t0) * 1000)
        elapsed = time.perf_counter() - started
        for _ in range(max(queries // 4, 10)):
            t0 = time.perf_counter()
            await get_state(svc, caller, caller.context_id, as_of=moment)
            state_ms.append((time.perf_counter() - t0) * 1000)
        out[label] = {
            **{f"query_p{q}_ms": round(percentile(query_ms, q), 2) for q in (50, 95, 99)},
            "query_per_s": round(queries / elapsed, 1),
            **{f"state_p{q}_ms": round(percentile(state_ms, q), 2) for q in (50, 95, 99)},
        }
    return out


async def update_cost(svc: Any, data: dict, updates: int, rng: random.Random) -> dict:
    """What the trigger adds to a write: single-row updates of a served column (one
    statement and commit each, as a correction is), with the trigger on and then off, in
    alternating rounds so the machine's load falls on both alike."""
    caller = data["caller"]
    cur_ids: list[Any] = []
    async with svc.db.connection() as conn:
        cur = await conn.execute(
            "SELECT id FROM memory_record WHERE context_id = %s", (caller.context_id,)
        )
        cur_ids = [r["id"] for r in await cur.fetchall()]
    timings: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(4):
        for kept in (True, False):
            switch = "ENABLE" if kept else "DISABLE"
            async with svc.db.connection() as conn:
                await conn.execute(f"ALTER TABLE memory_record {switch} TRIGGER memory_record_past")
                for rid in rng.sample(cur_ids, updates // 4):
                    t0 = time.perf_counter()
                    await conn.execute(
                        "UPDATE memory_record SET body = body || ' x', modified_at = now() "
                        "WHERE context_id = %s AND id = %s",
                        (caller.context_id, rid),
                    )
                    timings[kept].append((time.perf_counter() - t0) * 1000)
    async with svc.db.connection() as conn:
        await conn.execute("ALTER TABLE memory_record ENABLE TRIGGER memory_record_past")
    return {
        f"{'kept' if kept else 'off'}_p{q}_ms": round(percentile(values, q), 3)
        for kept, values in timings.items()
        for q in (50, 95)
    }


async def run(sizes: list[int], queries: int, changed: float) -> list[dict]:
    results = []
    for size in sizes:
        rng, np_rng = random.Random(7), np.random.default_rng(7)
        async with services() as svc:
            STDERR.print(f"loading {size:,} records, {changed:.0%} changed")
            data = await load(svc, size, changed, rng, np_rng)
            async with svc.db.connection() as conn:
                cur = await conn.execute("SELECT count(*) AS n FROM memory_record_past")
                kept = int((await cur.fetchone() or {"n": 0})["n"])
            STDERR.print(f"querying ({queries} per moment)")
            measured = await measure(svc, data, queries, rng, np_rng)
            writes = await update_cost(svc, data, 400, rng)
        for label, figures in measured.items():
            results.append(
                {"records": size, "kept_states": kept, "read": label, **figures, **writes}
            )
    for r in results:
        r["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--changed", type=float, default=0.3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = asyncio.run(run(sizes, args.queries, args.changed))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    table = Table(title="/query (hybrid, vector supplied, limit 10) and /state: now vs as_of")
    for column in (
        "records",
        "kept states",
        "read",
        "query p50/p95/p99 ms",
        "query/s",
        "state p50/p95/p99 ms",
        "peak RSS MB",
    ):
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(
            f"{r['records']:,}",
            f"{r['kept_states']:,}",
            r["read"],
            f"{r['query_p50_ms']}/{r['query_p95_ms']}/{r['query_p99_ms']}",
            str(r["query_per_s"]),
            f"{r['state_p50_ms']}/{r['state_p95_ms']}/{r['state_p99_ms']}",
            str(r["peak_rss_mb"]),
        )
    table_console().print(table)
    writes = Table(title="one-row update of a served column (autocommit): trigger on vs off")
    for column in ("records", "kept p50/p95 ms", "off p50/p95 ms"):
        writes.add_column(column, justify="right")
    for r in results:
        if r["read"] == "now":
            writes.add_row(
                f"{r['records']:,}",
                f"{r['kept_p50_ms']}/{r['kept_p95_ms']}",
                f"{r['off_p50_ms']}/{r['off_p95_ms']}",
            )
    table_console().print(writes)


if __name__ == "__main__":
    main()
