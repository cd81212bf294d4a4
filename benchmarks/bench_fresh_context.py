"""Benchmark /query on a Context that was just filled through the API, queried at once.

A fresh embedded database; `memwarden serve` as its own process with its job worker (as a
user runs it); one Context filled over HTTP the way an application fills it: each memory a
`POST /memory/commands` create, then `POST /memory/embeddings` with its vector (clustered
synthetic 384-d vectors, bodies from LoCoMo's word frequencies), from `--clients`
concurrent keep-alive clients. The server is then restarted (no process cache survives the
fill), and `/query` runs at once, sequentially on one connection, alternating hybrid and
vector-only, for `--seconds`; the query text is embedded by the server. The table gives the
latency per window of time since the restart, with the state of the Context's record index
(read from the catalog by this process) at the window's end, so the time the index takes to
appear and to be used can be read off. `--threshold` sets `MEMWARDEN_VECTOR_INDEX_THRESHOLD`
on the server (a value above `--size` leaves the Context unindexed: the exact scan).

Run: `python benchmarks/bench_fresh_context.py [--size 20000] [--clients 8] [--seconds 120]
[--window 10] [--threshold 5000] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import psycopg
from _harness import STDERR, percentile, services, start_serve, stop_serve
from _tables import table_console
from bench_http_query import ADMIN, free_port
from bench_query import DIM, unit, vocabulary
from rich.table import Table

from memwarden.admin.contexts import create_context
from memwarden.store import vector_index

SCOPE = {"project_id": "bench", "visibility": "shared"}


def start_server(url: str, data_dir: Path, port: int, threshold: int | None) -> subprocess.Popen:
    """`memwarden serve` with its job worker, as a user starts it."""
    env = {"MEMWARDEN_LOG_LEVEL": "WARNING"}
    if threshold is not None:
        env["MEMWARDEN_VECTOR_INDEX_THRESHOLD"] = str(threshold)
    return start_serve(url, data_dir, port, env=env)


async def fill(port: int, key: str, bodies: list[str], vectors: Any, clients: int) -> float:
    """Every memory through the API: a create, then its vector; seconds taken."""
    headers = {"authorization": f"Bearer {key}"}
    todo = list(range(len(bodies)))
    started = time.perf_counter()

    async def client() -> None:
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60
        ) as http:
            while todo:
                n = todo.pop()
                command = {"contract_version": 1, "op": "create", "content": bodies[n]}
                r = await http.post(
                    "/api/v1/memory/commands", json={"scope": SCOPE, "command": command}
                )
                if r.status_code != 200:
                    raise SystemExit(f"create answered {r.status_code}: {r.text[:200]}")
                made = r.json()
                r = await http.post(
                    "/api/v1/memory/embeddings",
                    json={
                        "contract_version": 1,
                        "scope": SCOPE,
                        "record_id": made["record_id"],
                        "revision": made["revision"],
                        "vector": vectors[n].tolist(),
                    },
                )
                if r.status_code != 200:
                    raise SystemExit(f"embeddings answered {r.status_code}: {r.text[:200]}")

    await asyncio.gather(*(client() for _ in range(clients)))
    return time.perf_counter() - started


def index_state(url: str, context_id: Any) -> str:
    """The Context's record index as the catalog has it: missing, building or valid."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(%s)",
            (vector_index.index_name(context_id),),
        ).fetchone()
    return "missing" if row is None else ("valid" if row[0] else "building")


def query_for(
    seconds: float, port: int, context_id: Any, key: str, texts: list[str], url: str, window: float
) -> list[dict[str, Any]]:
    """Sequential /query from the restart on, alternating modes; a row per window."""
    headers = {"authorization": f"Bearer {key}"}
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    took: dict[str, list[float]] = {"hybrid": [], "vector": []}
    edge = window
    n = 0
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60) as http:
        while (now := time.monotonic() - started) < seconds:
            mode = "hybrid" if n % 2 == 0 else "vector"
            t0 = time.perf_counter()
            r = http.post(
                f"/api/v1/{context_id}/query",
                json={"query": f"{texts[n % len(texts)]} {n}", "mode": mode},
            )
            took[mode].append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise SystemExit(f"/query answered {r.status_code}: {r.text[:200]}")
            n += 1
            if time.monotonic() - started >= edge:
                rows.append(_window(edge - window, edge, took, index_state(url, context_id)))
                took = {"hybrid": [], "vector": []}
                edge += window
        if took["hybrid"] or took["vector"]:
            rows.append(_window(edge - window, now, took, index_state(url, context_id)))
    return rows


def _window(start: float, end: float, took: dict[str, list[float]], state: str) -> dict:
    def stats(values: list[float]) -> dict[str, float]:
        return {f"p{q}": round(percentile(values, q), 1) for q in (50, 95)}

    return {
        "from_s": round(start, 1),
        "to_s": round(end, 1),
        "queries": len(took["hybrid"]) + len(took["vector"]),
        "hybrid": stats(took["hybrid"]),
        "vector": stats(took["vector"]),
        "index": state,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng, np_rng = random.Random(5), np.random.default_rng(5)
    words, weights = vocabulary()
    bodies = [" ".join(rng.choices(words, weights, k=rng.randint(6, 20))) for _ in range(args.size)]
    centres = unit(np_rng.standard_normal((64, DIM)).astype(np.float32))
    picks = np_rng.integers(0, len(centres), args.size)
    vectors = unit(
        centres[picks] + np_rng.standard_normal((args.size, DIM)).astype(np.float32) * 0.06
    )
    texts = [" ".join(rng.sample(bodies[rng.randrange(args.size)].split(), 3)) for _ in range(500)]
    async with services() as svc:
        made = await create_context(svc.db, ADMIN, "fresh", owner="bench")
        assert made.owner_key is not None
        context_id, key = uuid.UUID(made.id), made.owner_key.key
        url = svc.settings.database_url
        assert url is not None
        port = free_port()
        proc = start_server(url, svc.settings.data_dir, port, args.threshold)
        try:
            fill_s = await fill(port, key, bodies, vectors, args.clients)
            state_after_fill = index_state(url, context_id)
        finally:
            stop_serve(proc, wait_s=30)
        proc = start_server(url, svc.settings.data_dir, port, args.threshold)
        try:
            windows = await asyncio.to_thread(
                query_for, args.seconds, port, context_id, key, texts, url, args.window
            )
        finally:
            stop_serve(proc, wait_s=30)
    return {
        "memories": args.size,
        "clients": args.clients,
        "threshold": args.threshold,
        "fill_s": round(fill_s, 1),
        "fill_per_s": round(args.size / fill_s, 1),
        "index_after_fill": state_after_fill,
        "windows": windows,
        "load_average": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--threshold", type=int, default=None, help="server's index threshold")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = asyncio.run(run(args))
    if args.json:
        print(json.dumps(r, indent=2))
        return
    STDERR.print(
        f"{r['memories']:,} memories filled through the API in {r['fill_s']} s"
        f" ({r['fill_per_s']}/s, {r['clients']} clients); record index after the fill:"
        f" {r['index_after_fill']}; threshold {r['threshold'] or 'default'};"
        f" load average {r['load_average']}"
    )
    table = Table(title="/query right after the fill (server restarted), by time since the restart")
    for column in ("seconds", "queries", "hybrid p50 / p95 ms", "vector p50 / p95 ms", "index"):
        table.add_column(column, justify="right")
    for w in r["windows"]:
        table.add_row(
            f"{w['from_s']}-{w['to_s']}",
            str(w["queries"]),
            f"{w['hybrid']['p50']} / {w['hybrid']['p95']}",
            f"{w['vector']['p50']} / {w['vector']['p95']}",
            w["index"],
        )
    table_console().print(table)


if __name__ == "__main__":
    main()
