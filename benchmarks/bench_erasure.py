"""Benchmark erasure: a subject's N records (default 10,000) erased and the tables vacuumed.

A throwaway database gets `--records` records for one subject written straight in SQL, as
the write path leaves them: one turn (with its chunk) per record, the record with its first
revision and a vector in `memory_embedding`, plus as many records of another subject that
must stay. Then the erasure is requested and run as the worker runs it, and the table says
the wall time, its part spent vacuuming, and records erased per second.
Run: `python benchmarks/bench_erasure.py [--records 10000] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _harness import STDERR, make_caller, services
from _tables import table_console
from rich.table import Table

from memwarden.erasure import run
from memwarden.erasure.contract import ErasureBody
from memwarden.erasure.service import request_erasure
from memwarden.store import erasure as erasure_store

FILL = """
WITH s AS (
    INSERT INTO session (context_id, id, principal_id, scope_path)
    VALUES (%(cid)s, gen_random_uuid(), %(principal)s, '') RETURNING id
), t AS (
    INSERT INTO turn (context_id, id, session_id, principal_id, text, scope_path, visibility,
                      owner_subject)
    SELECT %(cid)s, gen_random_uuid(), (SELECT id FROM s), %(principal)s,
           'I like item ' || n || ' very much.', '', 'shared', %(subject)s
    FROM generate_series(1, %(n)s) n
    RETURNING id, text
), c AS (
    INSERT INTO chunk (context_id, id, turn_id, text, owner_subject)
    SELECT %(cid)s, gen_random_uuid(), t.id, t.text, %(subject)s FROM t
), r AS (
    INSERT INTO memory_record (context_id, id, kind, content, body, source_kind, source_ref,
                               author_subject, owner_subject, attr_key)
    SELECT %(cid)s, gen_random_uuid(), 'attribute',
           jsonb_build_object('entity', %(subject)s, 'key', 'likes', 'value', t.text),
           t.text, 'turn', t.id, %(subject)s, %(subject)s, 'likes'
    FROM t
    RETURNING id, content
), v AS (
    INSERT INTO memory_revision (context_id, record_id, revision, op, content, actor_subject)
    SELECT %(cid)s, r.id, 1, 'create', r.content, %(subject)s FROM r
)
INSERT INTO memory_embedding (context_id, record_id, revision, embedding, model)
SELECT %(cid)s, r.id, 1,
       (SELECT array_agg(random())::real[] FROM generate_series(1, 384))::vector, 'bench'
FROM r
"""


async def fill(svc: Any, context_id: uuid.UUID, subject: str, n: int) -> None:
    async with svc.db.transaction() as conn:
        cur = await conn.execute(
            "INSERT INTO principal (context_id, id, subject) VALUES (%s, gen_random_uuid(), %s)"
            " ON CONFLICT (context_id, subject) DO UPDATE SET subject = EXCLUDED.subject"
            " RETURNING id",
            (context_id, subject),
        )
        row = await cur.fetchone()
        assert row is not None
        params = {"cid": context_id, "principal": row["id"], "subject": subject, "n": n}
        await conn.execute(FILL, params)


async def measure(records: int) -> dict[str, Any]:
    async with services() as svc:
        caller = await make_caller(svc, "erasure", subject="operator-bench")
        context_id = caller.context_id
        assert context_id is not None
        STDERR.print(f"writing {records} records for each of two subjects")
        await fill(svc, context_id, "erased-subject", records)
        await fill(svc, context_id, "kept-subject", records)
        await svc.jobs.open_async()  # the request queues the job (run below, as a worker would)
        started = await request_erasure(
            svc, caller, context_id, ErasureBody(subject="erased-subject")
        )
        await svc.jobs.close_async()
        erasure_id = uuid.UUID(started.erasureId)
        vacuum_s = 0.0
        vacuum = erasure_store.vacuum

        async def timed_vacuum(conn: Any, *args: Any) -> None:
            nonlocal vacuum_s
            began = time.perf_counter()
            await vacuum(conn, *args)
            vacuum_s += time.perf_counter() - began

        erasure_store.vacuum = timed_vacuum  # type: ignore[assignment]
        began = time.perf_counter()
        assert await run.execute(svc, context_id, erasure_id) == "done"
        wall_s = time.perf_counter() - began
        erasure_store.vacuum = vacuum  # type: ignore[assignment]
        async with svc.db.connection() as conn:
            row = await erasure_store.get(conn, context_id, erasure_id)
            cur = await conn.execute(
                "SELECT count(*) AS n FROM memory_record WHERE context_id = %s"
                " AND serving::text <> 'erased'",
                (context_id,),
            )
            kept = (await cur.fetchone() or {"n": 0})["n"]
        assert row is not None
        return {
            "records": records,
            "kept_records": kept,
            "wall_s": round(wall_s, 2),
            "vacuum_s": round(vacuum_s, 2),
            "records_per_s": round(records / (wall_s - vacuum_s)) if wall_s > vacuum_s else None,
            "counts": row.counts,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(measure(args.records))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    table = Table(title=f"erasure of one subject's {args.records:,} records")
    for column in ("records", "kept", "wall s", "of which vacuum s", "records/s (erasing)"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{result['records']:,}",
        f"{result['kept_records']:,}",
        f"{result['wall_s']:.2f}",
        f"{result['vacuum_s']:.2f}",
        f"{result['records_per_s']:,}",
    )
    counts = Table(title="counts the erasure reports")
    counts.add_column("kind")
    counts.add_column("count", justify="right")
    for kind, n in sorted(result["counts"].items()):
        counts.add_row(kind, f"{n:,}")
    console = table_console()
    console.print(table)
    console.print(counts)


if __name__ == "__main__":
    main()
