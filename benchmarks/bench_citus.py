"""memwarden on a Citus cluster (a coordinator and two workers on loopback) against one
embedded PostgreSQL on the same machine: writes and /query over HTTP, and the database
part of a /query statement alone (the routing overhead Citus adds per statement).

Both sides run the same app in this process (tests/support/live.py) on the same data:
`--contexts` Contexts with `--memories` memories each, written through
/api/v1/memory/commands; then `--queries` /query calls, round robin over the Contexts,
one client at a time (latency, not capacity: on a 2-core machine three PostgreSQL nodes
share the cores with the app). Citus is built or found in the cache (tests/citus/build.py).

`--vector-records N` also loads one Context of N records (384 dimensions, clustered, by
COPY), times `search_vector_exact` against it, builds the Context's own HNSW index with
the index job's `build_index`, and times `search_vector` (the walk), each with recall@10
against the exact top 10: whether the per-Context partial index works on a distributed
partitioned table, and what it saves there.

    python benchmarks/bench_citus.py [--contexts 10] [--memories 40] [--queries 200]
        [--vector-records 0] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector, register_vector_async
from psycopg.rows import dict_row

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memwarden.domain.ids import new_id
from memwarden.logging_setup import configure_logging
from memwarden.settings import Settings
from memwarden.store import vector_index
from memwarden.store.bulk import BulkRecord, copy_records
from memwarden.store.embedded import embedded_url, start_embedded
from memwarden.store.migrate import apply_migrations
from memwarden.store.queries import all_queries, q
from memwarden.store.search import SearchFilter, vector_statement
from tests.citus.build import installation
from tests.citus.cluster import CitusCluster
from tests.support.live import LiveServer

ADMIN = "bench-admin-token-0123456789"
ALL = ["memory_read", "memory_write", "memory_review", "grant:manage"]
SCOPE = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "shared"}
WORDS = ["jazz", "hiking", "cello", "chess", "sailing", "tea", "Lisbon", "Oslo", "Acme"]
STATEMENTS = ("search_lexical", "recall_record_rows")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(ms: list[float], seconds: float) -> dict[str, float]:
    return {
        "n": len(ms),
        "per_s": len(ms) / seconds if seconds else 0.0,
        "p50": pct(ms, 50),
        "p95": pct(ms, 95),
        "p99": pct(ms, 99),
        "mean": statistics.fmean(ms),
    }


@contextmanager
def one_server() -> Iterator[str]:
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-bench-pg-"))
    workdir.chmod(0o755)
    server = start_embedded(workdir / "pgdata")
    try:
        url = embedded_url(server)
        apply_migrations(url)
        yield url
    finally:
        server.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def cluster() -> Iterator[str]:
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-bench-citus-"))
    nodes = CitusCluster(workdir, installation())
    try:
        nodes.start()
        url = nodes.database("memwarden")
        apply_migrations(url)
        yield url
    finally:
        nodes.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def timed(fn: Callable[[], Any], into: list[float]) -> Any:
    t = time.perf_counter()
    out = fn()
    into.append((time.perf_counter() - t) * 1000)
    return out


def run_side(url: str, args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="memwarden-bench-data-"))
    settings = Settings(database_url=url, admin_token=ADMIN, data_dir=data, pool_timeout_s=30.0)
    live = LiveServer(settings).start()
    try:
        contexts = []
        with live.client(ADMIN) as admin:
            for i in range(args.contexts):
                cid = admin.post("/api/v1/contexts", json={"name": f"b{i}"}).json()["id"]
                key = admin.post(
                    f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": ALL}
                ).json()["key"]
                contexts.append((cid, key))
        writes: list[float] = []
        started = time.perf_counter()
        for n in range(args.memories):
            for cid, key in contexts:
                text = f"Note {n}: Alice likes {WORDS[n % len(WORDS)]} (context {cid[-4:]})."
                body = {
                    "scope": SCOPE,
                    "command": {"contract_version": 1, "op": "create", "content": text},
                }
                with live.client(key) as c:
                    resp = timed(
                        lambda c=c, body=body: c.post("/api/v1/memory/commands", json=body), writes
                    )
                assert resp.status_code in (200, 201), resp.text
        write_s = time.perf_counter() - started
        queries: list[float] = []
        clients = [(cid, live.client(key)) for cid, key in contexts]
        started = time.perf_counter()
        for i in range(args.queries):
            cid, c = clients[i % len(clients)]
            word = WORDS[i % len(WORDS)]
            resp = timed(
                lambda c=c, cid=cid, word=word: c.get(
                    f"/api/v1/{cid}/query", params={"query": f"what does Alice like {word}"}
                ),
                queries,
            )
            assert resp.status_code == 200, resp.text
        query_s = time.perf_counter() - started
        for _, c in clients:
            c.close()
        statements = statement_times(url, [cid for cid, _ in contexts], args.queries)
    finally:
        live.stop()
        shutil.rmtree(data, ignore_errors=True)
    return {
        "writes": summary(writes, write_s),
        "query": summary(queries, query_s),
        **{name: summary(ms, sum(ms) / 1000) for name, ms in statements.items()},
    }


def statement_times(url: str, contexts: list[str], n: int) -> dict[str, list[float]]:
    """One statement of /query at a time, prepared, on one connection: the database part
    alone, with the Context's routing on Citus and without it on one server."""
    out: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        for i in range(n):
            cid = uuid.UUID(contexts[i % len(contexts)])
            ids = [
                r[0]
                for r in conn.execute(
                    "SELECT id FROM memory_record WHERE context_id = %s LIMIT 10", (cid,)
                )
            ]
            params = {
                "context_id": cid,
                "query": WORDS[i % len(WORDS)],
                "limit": 10,
                "match_cap": 400,
                "prefixes": [""],
                "subject": "alice",
                "visibility": None,
                "kinds": None,
                "categories": None,
                "ids": ids,
                "history": False,
            }
            for name in STATEMENTS:
                sql = all_queries()[name]
                timed(
                    lambda sql=sql, params=params: conn.execute(
                        sql, params, prepare=True
                    ).fetchall(),
                    out[name],
                )
    return out


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


async def vector_side(url: str, n: int, queries: int = 60) -> dict[str, Any]:
    """One Context of `n` clustered records: the exact scan, the index build, the walk."""
    rng = np.random.default_rng(7)
    centres = _unit(rng.standard_normal((32, 384)))
    vectors = _unit(centres[rng.integers(0, 32, n)] + rng.standard_normal((n, 384)) * 0.08)
    vectors = vectors.astype(np.float32)
    rows = [BulkRecord(new_id(), "attribute", f"record {i}", v) for i, v in enumerate(vectors)]
    ids = np.array([r.id for r in rows])
    asked = [_unit(vectors[i * 37 % n] + rng.standard_normal(384) * 0.05) for i in range(queries)]
    cid = uuid.uuid4()
    out: dict[str, Any] = {}
    async with await psycopg.AsyncConnection.connect(
        url, autocommit=True, row_factory=dict_row
    ) as conn:
        await register_vector_async(conn)
        await conn.execute("INSERT INTO context (id, name) VALUES (%s, %s)", (cid, "vectors"))
        async with conn.transaction():
            await copy_records(conn, cid, rows)
        await conn.execute(q("session_vector_settings"))
        where = SearchFilter(cid, ("",), "bench", None, None, None)

        async def search(indexed: bool) -> dict[str, float]:
            ms: list[float] = []
            recalls: list[float] = []
            for v in asked:
                exact = set(ids[np.argsort(-(vectors @ v))[:10]])
                name, params = vector_statement(where, v.tolist(), 10, indexed=indexed)
                started = time.perf_counter()
                cur = await conn.execute(q(name), params)
                got = [r["id"] for r in await cur.fetchall()]
                ms.append((time.perf_counter() - started) * 1000)
                recalls.append(len(exact & set(got[:10])) / 10)
            return {**summary(ms, sum(ms) / 1000), "recall": float(np.mean(recalls))}

        out["search_vector_exact"] = await search(False)
        started = time.perf_counter()
        await vector_index.build_index(conn, cid)
        out["build_s"] = time.perf_counter() - started
        out["search_vector (walk)"] = await search(True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contexts", type=int, default=10)
    parser.add_argument("--memories", type=int, default=40, help="per Context")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--vector-records", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    configure_logging("WARNING", json=False)
    results: dict[str, Any] = {}
    vectors: dict[str, Any] = {}
    for side, backend in (("one server", one_server), ("citus (1+2 nodes)", cluster)):
        with backend() as url:
            if args.contexts:
                results[side] = run_side(url, args)
            if args.vector_records:
                vectors[side] = asyncio.run(vector_side(url, args.vector_records))
    if args.json:
        print(json.dumps({"args": vars(args), "results": results, "vectors": vectors}, indent=2))
        return
    if vectors:
        print(f"one Context of {args.vector_records} records: exact scan, then its own index")
        print("| backend | statement | n | p50 ms | p95 ms | recall@10 | index build s |")
        print("|---|---|---|---|---|---|---|")
        for side, parts in vectors.items():
            for what in ("search_vector_exact", "search_vector (walk)"):
                s = parts[what]
                print(
                    f"| {side} | {what} | {s['n']} | {s['p50']:.2f} | {s['p95']:.2f} |"
                    f" {s['recall']:.3f} | {parts['build_s']:.1f} |"
                )
    if not results:
        return
    print(f"{args.contexts} Contexts x {args.memories} memories, {args.queries} queries")
    print("| backend | what | n | per s | p50 ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|")
    for side, parts in results.items():
        for what, s in parts.items():
            print(
                f"| {side} | {what} | {s['n']} | {s['per_s']:.1f} | {s['p50']:.2f} |"
                f" {s['p95']:.2f} | {s['p99']:.2f} |"
            )


if __name__ == "__main__":
    main()
