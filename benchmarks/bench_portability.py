"""Benchmark export and import: a Context of N records (default 10,000) exported as JSON
Lines and imported into a new Context.

A throwaway database gets `--records` attribute records written straight in SQL as the write
path leaves them (one turn with its chunk per record, the record's first revision and its
vector from the deployment's embedder). The export is streamed whole (`sessions=true`),
then the file is imported into a fresh Context as the worker runs the job: the judge off
(the Context's default), every record and chunk embedded again with the local embedder
(`--no-embed` writes the records' vectors under another model name and the chunks
without one, so the import embeds nothing and the table shows the database's part
alone). The tables give throughput, per-page (export) and per-batch (import) latency
percentiles and peak memory.
Run: `python benchmarks/bench_portability.py [--records 10000] [--no-embed] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _harness import STDERR, peak_rss_mb, percentile, services
from _tables import table_console
from rich.table import Table

from memwarden.admin.auth import authenticate
from memwarden.admin.contexts import create_context
from memwarden.admin.keys import create_key
from memwarden.cli.portability import parts
from memwarden.domain.grants import Caller
from memwarden.embedding import embedder_name
from memwarden.portability import export, run
from memwarden.portability.service import (
    ExportRequest,
    ImportRequest,
    export_filter,
    request_import,
)
from memwarden.services import Services
from memwarden.store import portability as store

GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]
ADMIN = Caller(None, None, "admin", None, {}, is_admin=True)
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
    INSERT INTO chunk (context_id, id, turn_id, text, owner_subject, embedding)
    SELECT %(cid)s, gen_random_uuid(), t.id, t.text, %(subject)s,
           CASE WHEN %(embed)s
                THEN (SELECT array_agg(random())::real[] FROM generate_series(1, 384))::vector
           END
    FROM t
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
       (SELECT array_agg(random())::real[] FROM generate_series(1, 384))::vector, %(model)s
FROM r
"""


async def keyed(svc: Services, name: str) -> Caller:
    """A Context and a key holding every grant over it (the import job runs as a key)."""
    cid = uuid.UUID((await create_context(svc.db, ADMIN, name)).id)
    issued = await create_key(svc.db, ADMIN, cid, subject="bench", grants=GRANTS)
    return await authenticate(svc.db, issued.key, None)


async def fill(svc: Services, caller: Caller, n: int, model: str, embed: bool) -> None:
    async with svc.db.transaction() as conn:
        params = {
            "cid": caller.context_id,
            "principal": caller.principal_id,
            "subject": caller.subject,
            "n": n,
            "model": model,
            "embed": embed,
        }
        await conn.execute(FILL, params)


async def measure_export(svc: Services, caller: Caller) -> tuple[bytes, dict[str, Any]]:
    assert caller.context_id is not None
    request = ExportRequest(sessions=True)
    f = export_filter(caller, caller.context_id, request)
    parts: list[bytes] = []
    pages: list[float] = []
    lines = 0
    began = last = time.perf_counter()
    async for line in export.stream(svc, f, request):
        parts.append(line.encode())
        lines += 1
        if lines % export.PAGE == 0:
            now = time.perf_counter()
            pages.append((now - last) * 1000)
            last = now
    wall = time.perf_counter() - began
    data = b"".join(parts)
    return data, {
        "lines": lines,
        "mib": round(len(data) / 2**20, 1),
        "wall_s": round(wall, 2),
        "lines_per_s": round(lines / wall),
        "page_ms": [round(percentile(pages, q), 1) for q in (50, 95, 99)],
    }


async def measure_import(svc: Services, caller: Caller, data: bytes) -> dict[str, Any]:
    """The file in parts as `memwarden import` sends it (each at most one request's body),
    each part an import run as the worker runs it."""
    assert caller.context_id is not None
    cid = caller.context_id
    batches: list[float] = []
    advance = store.advance
    last = time.perf_counter()

    async def timed_advance(*args: Any) -> None:
        nonlocal last
        await advance(*args)
        now = time.perf_counter()
        batches.append((now - last) * 1000)
        last = now

    request_s = job_s = 0.0
    items, counts = 0, Counter[str]()
    store.advance = timed_advance  # type: ignore[assignment]
    for part in parts(data):
        await svc.jobs.open_async()  # the request queues the job (run below, as a worker would)
        began = time.perf_counter()
        started = await request_import(svc, caller, cid, ImportRequest(part, "/bench/source"))
        request_s += time.perf_counter() - began
        await svc.jobs.close_async()
        import_id = uuid.UUID(started.importId)
        began = last = time.perf_counter()
        assert await run.execute(svc, cid, import_id) == "done"
        job_s += time.perf_counter() - began
        async with svc.db.connection() as conn:
            row = await store.get_import(conn, cid, import_id)
        assert row is not None
        items += row.total
        counts.update(row.counts)
    store.advance = advance  # type: ignore[assignment]
    return {
        "items": items,
        "request_s": round(request_s, 2),
        "job_s": round(job_s, 2),
        "items_per_s": round(items / job_s),
        "batch_ms": [round(percentile(batches, q), 1) for q in (50, 95, 99)],
        "counts": dict(counts),
    }


async def measure(records: int, embed: bool) -> dict[str, Any]:
    async with services() as svc:
        source = await keyed(svc, "export-source")
        model = embedder_name(svc) if embed else "bench-other-model"
        STDERR.print(f"writing {records:,} records")
        await fill(svc, source, records, model, embed)
        STDERR.print("exporting")
        data, exported = await measure_export(svc, source)
        target = await keyed(svc, "import-target")
        STDERR.print(f"importing {exported['lines']:,} lines")
        imported = await measure_import(svc, target, data)
        return {
            "records": records,
            "embed": embed,
            "export": exported,
            "import": imported,
            "peak_rss_mb": round(peak_rss_mb()),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--no-embed", dest="embed", action="store_false")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(measure(args.records, args.embed))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    ex, im = result["export"], result["import"]
    title = f"export and import of {args.records:,} records" + (
        "" if args.embed else ", no embedding"
    )
    table = Table(title=title)
    for column in ("step", "lines/items", "wall s", "per s", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="right")
    table.add_row(
        "export (per page of 1,000 lines)",
        f"{ex['lines']:,}",
        f"{ex['wall_s']:.2f}",
        f"{ex['lines_per_s']:,}",
        *(f"{v:.1f}" for v in ex["page_ms"]),
    )
    table.add_row(
        "import requests (parse, store items)",
        f"{im['items']:,}",
        f"{im['request_s']:.2f}",
        f"{round(im['items'] / im['request_s']):,}",
        "",
        "",
        "",
    )
    table.add_row(
        "import job (per batch of 200)",
        f"{im['items']:,}",
        f"{im['job_s']:.2f}",
        f"{im['items_per_s']:,}",
        *(f"{v:.1f}" for v in im["batch_ms"]),
    )
    counts = Table(
        title=f"import outcomes; file {ex['mib']} MiB; peak RSS {result['peak_rss_mb']} MiB"
    )
    counts.add_column("outcome")
    counts.add_column("items", justify="right")
    for outcome, n in sorted(im["counts"].items()):
        counts.add_row(outcome, f"{n:,}")
    console = table_console()
    console.print(table)
    console.print(counts)


if __name__ == "__main__":
    main()
