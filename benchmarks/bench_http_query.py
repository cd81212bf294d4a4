"""Benchmark /query over HTTP as a client sees it, beside the in-process figures.

A corpus is bulk-loaded (binary COPY through `store.bulk`, vectors clustered synthetic 384-d,
bodies from LoCoMo's word frequencies) into one Context or many; `memwarden serve` then runs
as its own process on that database (real key auth, access log, rendering, the local
embedder for the query) and this process is the client: one keep-alive connection, POST
/query (hybrid, limit 10), sequential. The same queries then run in-process through the use
case, and the per-request pieces are timed on their own (auth lookup, response
serialisation, the access-log line, the HTTP floor of a request that reaches no route), so
the table says where the difference goes. recall@10 compares the record vector candidates
with an exact numpy scan of the same Context.

Run: `python benchmarks/bench_http_query.py [--size 10000] [--contexts 1] [--queries 300] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import structlog
from _harness import STDERR, percentile, services, start_serve, stop_serve
from _tables import table_console
from bench_query import DIM, KINDS, exact_10, unit, vector_hits, vocabulary
from pydantic import TypeAdapter
from rich.table import Table
from starlette.responses import JSONResponse

from memwarden.admin.auth import authenticate
from memwarden.admin.contexts import create_context
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.embedding import _CACHE
from memwarden.logging_setup import configure_logging
from memwarden.retrieval import vector_plan
from memwarden.retrieval.indexing import index_large_contexts
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.responses import QueryResponse
from memwarden.store.bulk import BulkRecord, copy_chunks, copy_records

ADMIN = Caller(None, None, "admin", None, {}, is_admin=True)


async def load(svc: Any, size: int, contexts: int, rng: random.Random, np_rng: Any) -> list:
    """`contexts` Contexts of size/contexts memories each (plus a chunk per 4), with keys."""
    words, weights = vocabulary()
    centres = unit(np_rng.standard_normal((64, DIM)).astype(np.float32))
    per = size // contexts
    data = []
    for n in range(contexts):
        made = await create_context(svc.db, ADMIN, f"bench-{n}", owner="bench")
        assert made.owner_key is not None
        key = made.owner_key.key
        caller = await authenticate(svc.db, key, None)
        ids = [new_id() for _ in range(per)]
        bodies = [" ".join(rng.choices(words, weights, k=rng.randint(6, 20))) for _ in ids]
        picks = np_rng.integers(0, len(centres), per)
        vectors = unit(
            centres[picks] + np_rng.standard_normal((per, DIM)).astype(np.float32) * 0.06
        )
        rows = [
            BulkRecord(rid, rng.choice(KINDS), body, vec)
            for rid, body, vec in zip(ids, bodies, vectors, strict=True)
        ]
        async with svc.db.transaction() as conn:
            await copy_records(conn, caller.context_id, rows)
            await copy_chunks(
                conn,
                caller.context_id,
                caller.principal_id,
                ((bodies[i], vectors[i]) for i in range(0, per, 4)),
            )
        data.append((caller, key, list(zip(ids, bodies, strict=True)), vectors))
    async with svc.db.connection() as conn:
        await conn.execute("VACUUM ANALYZE")  # steady state: GIN pending lists merged
    return data


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(url: str, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    return start_serve(url, data_dir, port, worker=False, wait_s=90)


def ms(values: list[float]) -> dict[str, float]:
    return {f"p{q}": round(percentile(values, q), 2) for q in (50, 95, 99)}


def queries_for(data: list, count: int, rng: random.Random, np_rng: Any) -> list:
    out = []
    for _ in range(count):
        caller, key, records, vectors = rng.choice(data)
        target = rng.randrange(len(records))
        text = " ".join(rng.sample(records[target][1].split(), 3))
        noisy = vectors[target] + np_rng.standard_normal(DIM).astype(np.float32) * 0.05
        out.append((caller, key, text, (noisy / np.linalg.norm(noisy)).tolist(), vectors, records))
    return out


def over_http(port: int, queries: list) -> tuple[list[float], list[float]]:
    """Sequential POST /query on one keep-alive connection; and the floor (a 404)."""
    base = f"http://127.0.0.1:{port}"
    took, floor = [], []
    with httpx.Client(base_url=base, timeout=30) as client:
        for caller, key, text, _, _, _ in queries[:20]:  # warm: prepared statements, model
            client.post(
                f"/api/v1/{caller.context_id}/query",
                json={"query": text},
                headers={"authorization": f"Bearer {key}"},
            )
        for caller, key, text, _, _, _ in queries:
            t0 = time.perf_counter()
            r = client.post(
                f"/api/v1/{caller.context_id}/query",
                json={"query": text + " "},  # a different text: the embedder's cache misses
                headers={"authorization": f"Bearer {key}"},
            )
            took.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise SystemExit(f"/query answered {r.status_code}: {r.text[:200]}")
            t0 = time.perf_counter()
            client.get("/api/v1/none")
            floor.append((time.perf_counter() - t0) * 1000)
    return took, floor


async def in_process(svc: Any, queries: list) -> dict[str, Any]:
    auth, full, db, ser, logging_ms, recall = [], [], [], [], [], []
    adapter: TypeAdapter[QueryResponse] = TypeAdapter(QueryResponse)
    log = structlog.get_logger("memwarden.access")
    for caller, key, text, qvec, vectors, records in queries:
        t0 = time.perf_counter()
        await authenticate(svc.db, key, None)
        auth.append((time.perf_counter() - t0) * 1000)
        _CACHE.entries.clear()
        t0 = time.perf_counter()
        result = await run_query(svc, caller, caller.context_id, QueryInput(text))
        full.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        await run_query(svc, caller, caller.context_id, QueryInput(text, vector=qvec))
        db.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()  # what FastAPI does with the route's response model
        JSONResponse(adapter.dump_python(adapter.validate_python(result), mode="json"))
        ser.append((time.perf_counter() - t0) * 1000)
        with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink):
            configure_logging("INFO", json=True)  # as `memwarden serve` logs
            t0 = time.perf_counter()
            log.info("request", method="POST", path="/api/v1/x/query", status=200, ms=1.0)
            logging_ms.append((time.perf_counter() - t0) * 1000)
            configure_logging("WARNING", json=False)
        async with svc.db.connection() as conn:
            got = await vector_hits(conn, caller, qvec)
        recall.append(len(exact_10(qvec, vectors, records) & got) / 10)
    return {
        "auth": ms(auth),
        "in_process": ms(full),
        "db": ms(db),
        "serialise": ms(ser),
        "log_line": ms(logging_ms),
        "recall_at_10": round(float(np.mean(recall)), 4),
    }


@contextlib.contextmanager
def fixed_walk_depth(ef: int) -> Iterator[None]:
    """Every index size walked at depth `ef` while inside (restored after)."""
    saved = vector_plan.DEPTHS, vector_plan.DEEPEST
    vector_plan.DEPTHS, vector_plan.DEEPEST = (), ef
    try:
        yield
    finally:
        vector_plan.DEPTHS, vector_plan.DEEPEST = saved


async def sweep(svc: Any, queries: list, values: list[int]) -> list[dict[str, Any]]:
    """The record vector list alone at several hnsw.ef_search values: recall@10 and time."""
    out = []
    for ef in values:
        took, recall = [], []
        # Recall sets the walk depth from the index's size before every walk, so a depth
        # set on the connection alone would be overwritten: every size gets `ef` here.
        with fixed_walk_depth(ef):
            async with svc.db.connection() as conn:
                for caller, _, _, qvec, vectors, records in queries:
                    t0 = time.perf_counter()
                    got = await vector_hits(conn, caller, qvec)
                    took.append((time.perf_counter() - t0) * 1000)
                    recall.append(len(exact_10(qvec, vectors, records) & got) / 10)
        out.append({"ef_search": ef, **ms(took), "recall_at_10": round(float(np.mean(recall)), 4)})
    return out


async def run(
    size: int, contexts: int, count: int, index: bool, ef_values: list[int]
) -> dict[str, Any]:
    rng, np_rng = random.Random(7), np.random.default_rng(7)
    async with services() as svc:
        started = time.perf_counter()
        data = await load(svc, size, contexts, rng, np_rng)
        load_s = round(time.perf_counter() - started, 1)
        started = time.perf_counter()
        indexed = await index_large_contexts(svc.db) if index else []  # as the job would
        index_s = round(time.perf_counter() - started, 1)
        async with svc.db.connection() as conn:
            await conn.execute("ANALYZE memory_record")
        queries = queries_for(data, count, rng, np_rng)
        url = svc.settings.database_url
        assert url is not None
        port = free_port()
        proc = start_server(url, svc.settings.data_dir, port)
        try:
            took, floor = over_http(port, queries)
        finally:
            stop_serve(proc)
        svc.models.embedder.embed(["warm up"])
        local = await in_process(svc, queries)
        swept = await sweep(svc, queries, ef_values)
    return {
        "memories": size,
        "contexts": contexts,
        "load_s": load_s,
        "indexed_contexts": len(indexed),
        "index_s": index_s,
        "http": ms(took),
        "http_floor": ms(floor),
        **local,
        "ef_search_sweep": swept,
        "load_average": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--contexts", type=int, default=1)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--no-index", action="store_true", help="no per-Context HNSW index")
    parser.add_argument("--ef-search", default="", help="e.g. 40,100,200: recall per value")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ef_values = [int(v) for v in args.ef_search.split(",") if v]
    r = asyncio.run(run(args.size, args.contexts, args.queries, not args.no_index, ef_values))
    if args.json:
        print(json.dumps(r, indent=2))
        return
    STDERR.print(
        f"{r['memories']:,} memories in {r['contexts']} Context(s), loaded in {r['load_s']} s;"
        f" {r['indexed_contexts']} Context index(es) built in {r['index_s']} s;"
        f" recall@10 of the vector candidates vs exact {r['recall_at_10']};"
        f" load average {r['load_average']}"
    )
    table = Table(title="/query (hybrid, limit 10, query embedded): where the time goes")
    for column in ("part", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="right")
    rows = [
        ("HTTP, as the client sees it", "http"),
        ("in-process use case, with embedding", "in_process"),
        ("in-process, vector given (database part)", "db"),
        ("auth lookup (key to Caller)", "auth"),
        ("response validation + JSON", "serialise"),
        ("access-log line", "log_line"),
        ("HTTP floor (a request that reaches no route)", "http_floor"),
    ]
    for label, name in rows:
        v = r[name]
        table.add_row(label, str(v["p50"]), str(v["p95"]), str(v["p99"]))
    table_console().print(table)
    for row in r["ef_search_sweep"]:
        STDERR.print(
            f"hnsw.ef_search {row['ef_search']}: record vector list p50/p95 {row['p50']}/"
            f"{row['p95']} ms, recall@10 {row['recall_at_10']}"
        )


if __name__ == "__main__":
    main()
