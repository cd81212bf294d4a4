"""memwarden on a Citus cluster (a coordinator and two workers on loopback) against one
embedded PostgreSQL on the same machine: writes and /query over HTTP, and the database
part of a /query statement alone (the routing overhead Citus adds per statement).

Both sides run the same app in this process (tests/support/live.py) on the same data:
`--contexts` Contexts with `--memories` memories each, written through
/api/v1/memory/commands; then `--queries` /query calls, round robin over the Contexts,
one client at a time (latency, not capacity: on a 2-core machine three PostgreSQL nodes
share the cores with the app). Citus is built or found in the cache (tests/citus/build.py).

    python benchmarks/bench_citus.py [--contexts 10] [--memories 40] [--queries 200] [--json]
"""

from __future__ import annotations

import argparse
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

import psycopg
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memwarden.logging_setup import configure_logging
from memwarden.settings import Settings
from memwarden.store.embedded import embedded_url, start_embedded
from memwarden.store.migrate import apply_migrations
from memwarden.store.queries import all_queries
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contexts", type=int, default=10)
    parser.add_argument("--memories", type=int, default=40, help="per Context")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    configure_logging("WARNING", json=False)
    results = {}
    with one_server() as url:
        results["one server"] = run_side(url, args)
    with cluster() as url:
        results["citus (1+2 nodes)"] = run_side(url, args)
    if args.json:
        print(json.dumps({"args": vars(args), "results": results}, indent=2))
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
