"""Where one /query's time goes, stage by stage, in wall-clock and CPU time.

The corpus and queries are bench_vs_mem0's (bodies from LoCoMo's word frequencies, vectors
from the local MiniLM, one Context, its index built), so the stages are those of that
comparison. Each query runs four ways, interleaved, so load that comes and goes hits all
four alike:

- over HTTP to a `memwarden serve` process (as a client sees it);
- through the ASGI app in this process (FastAPI, the middleware, authentication, the use
  case and the response's rendering, without sockets or uvicorn's HTTP parser);
- the use case alone (`run_query`), with its stages timed by wrappers put around the
  functions it calls (the query's embedding, each pipelined round trip named by its first
  statement, the vector plan, fusion, the reranker point);
- authentication alone, and the answer's rendering alone (`model_dump_json`).

Each stage gets wall time (`perf_counter`) and this process's CPU time (`process_time`,
which also counts the embedding thread's CPU while a round trip waits); the embedding's
own thread CPU is `thread_time` inside the thread. Medians over many queries say more
than the tails on a loaded machine.

`--against DIR` adds a second `memwarden serve` on the same database, run from another
checkout's `src` (say, `git archive <commit> src | tar -x -C DIR`), and sends each query
to both in alternating order: wall time per request as the client sees it, and each
server process's CPU time per request (its user + system time over the run, divided by
its requests), which the machine's load distorts much less than wall time.

Run: `python benchmarks/bench_query_stages.py [--size 10000] [--queries 300] [--against DIR]
[--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import numpy as np
from _harness import STDERR, percentile, services, start_serve, stop_serve
from _tables import table_console
from bench_http_query import ADMIN, free_port, start_server
from bench_vs_mem0 import corpus
from rich.table import Table

from memwarden import embedding
from memwarden.admin.auth import authenticate
from memwarden.admin.contexts import create_context
from memwarden.api.app import create_app
from memwarden.domain.ids import new_id
from memwarden.retrieval import query as query_module
from memwarden.retrieval.indexing import index_large_contexts
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.store.bulk import BulkRecord, copy_records

Timings = dict[str, list[tuple[float, float]]]  # stage -> [(wall ms, cpu ms)] per query


class Stages:
    """Wrappers that time the use case's collaborators for the query in flight."""

    def __init__(self) -> None:
        self.current: dict[str, tuple[float, float]] = {}
        self.all: Timings = defaultdict(list)
        self.active = False

    def add(self, stage: str, wall: float, cpu: float) -> None:
        if not self.active:
            return
        w, c = self.current.get(stage, (0.0, 0.0))
        self.current[stage] = (w + wall, c + cpu)

    def close(self) -> None:
        for stage, value in self.current.items():
            self.all[stage].append(value)
        self.current = {}

    def wrap_async(self, name: str | Callable[..., str], fn: Any) -> Any:
        @functools.wraps(fn)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            w0, c0 = time.perf_counter(), time.process_time()
            try:
                return await fn(*args, **kwargs)
            finally:
                stage = name(*args, **kwargs) if callable(name) else name
                self.add(stage, _ms(w0, time.perf_counter()), _ms(c0, time.process_time()))

        return timed

    def wrap_sync(self, name: str, fn: Any, clock: Callable[[], float]) -> Any:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            w0, c0 = time.perf_counter(), clock()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(name, _ms(w0, time.perf_counter()), _ms(c0, clock()))

        return timed


def _ms(t0: float, t1: float) -> float:
    return (t1 - t0) * 1000


def _round_trip_name(conn: Any, statements: Any, *args: Any, **kwargs: Any) -> str:
    names = [name for name, _ in statements if not name.startswith("set_")]
    return f"round trip: {names[0] if names else 'settings'} (+{max(len(names) - 1, 0)})"


def instrument(stages: Stages) -> None:
    """Wrap what run_query calls, by the names it looks them up under."""
    q = query_module
    if hasattr(q, "run_all"):
        q.run_all = stages.wrap_async(_round_trip_name, q.run_all)
    for name in ("vector_plan", "rerank_fused"):
        if hasattr(q, name):
            setattr(q, name, stages.wrap_async(name, getattr(q, name)))
    if hasattr(q, "embed_texts"):
        q.embed_texts = stages.wrap_async("query embedding (await)", q.embed_texts)
    q.fuse_lists = stages.wrap_sync("fusion", q.fuse_lists, time.process_time)
    embedding._embed_grouped = stages.wrap_sync(  # type: ignore[attr-defined]
        "query embedding (its thread)", embedding._embed_grouped, time.thread_time
    )
    for module_name in ("memwarden.retrieval.rerank_stage", "memwarden.retrieval.traffic"):
        module = sys.modules.get(module_name)
        if module is not None and hasattr(module, "run_all"):
            module.run_all = stages.wrap_async(_round_trip_name, module.run_all)


def _cpu_ms(pid: int) -> float:
    """User + system CPU of a process and its children so far, in ms."""
    import psutil

    procs = [psutil.Process(pid)]
    procs += procs[0].children(recursive=True)
    return sum(p.cpu_times().user + p.cpu_times().system for p in procs) * 1000


def side_by_side(
    ports: dict[str, int], pids: dict[str, int], path: str, headers: dict[str, str], texts: list
) -> Timings:
    """Each text to every server in turn (the order alternating): per request, the wall
    time and the server's CPU time averaged over the run (one value repeated)."""
    clients = {
        name: httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers)
        for name, port in ports.items()
    }
    names = list(ports)
    walls: dict[str, list[float]] = {name: [] for name in names}
    for name in names:  # warm: prepared statements, the model
        for text in texts[:20]:
            clients[name].post(path, json={"query": text + " warm"})
    cpu0 = {name: _cpu_ms(pid) for name, pid in pids.items()}
    for n, text in enumerate(texts):
        for name in names if n % 2 else reversed(names):
            t0 = time.perf_counter()
            r = clients[name].post(path, json={"query": f"{text} {n} ab"})
            walls[name].append(_ms(t0, time.perf_counter()))
            assert r.status_code == 200, r.text[:200]
    out: Timings = {}
    for name in names:
        per = (_cpu_ms(pids[name]) - cpu0[name]) / len(texts)
        out[f"A/B over HTTP: {name}"] = [(w, per) for w in walls[name]]
        clients[name].close()
    return out


def summary(values: list[tuple[float, float]]) -> dict[str, float]:
    walls = [w for w, _ in values]
    cpus = [c for _, c in values]
    return {
        "n": len(values),
        "wall_p50": round(percentile(walls, 50), 3),
        "wall_p95": round(percentile(walls, 95), 3),
        "cpu_p50": round(percentile(cpus, 50), 3),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    texts, asked = corpus(args.size, args.queries, args.seed)
    stages = Stages()
    async with services() as svc:
        made = await create_context(svc.db, ADMIN, "stages", owner="bench")
        assert made.owner_key is not None
        key, context_id = made.owner_key.key, uuid.UUID(made.id)
        vectors = np.asarray(svc.models.embedder.embed(texts), dtype=np.float32)
        rows = [
            BulkRecord(new_id(), "attribute", t, v) for t, v in zip(texts, vectors, strict=True)
        ]
        async with svc.db.transaction() as conn:
            await copy_records(conn, context_id, rows)
        async with svc.db.connection() as conn:
            await conn.execute("VACUUM ANALYZE")
        await index_large_contexts(svc.db, svc.settings.vector_index_threshold)
        caller = await authenticate(svc.db, key, None)
        instrument(stages)
        app = create_app(svc)
        url = svc.settings.database_url
        assert url is not None
        port = free_port()
        proc = start_server(url, svc.settings.data_dir, port)
        other = None
        if args.against:
            other_port = free_port()
            other = start_serve(
                url,
                svc.settings.data_dir,
                other_port,
                worker=False,
                env={"PYTHONPATH": str(Path(args.against).resolve() / "src")},
            )
        headers = {"authorization": f"Bearer {key}"}
        path = f"/api/v1/{context_id}/query"
        took: Timings = defaultdict(list)
        compared: Timings = {}

        def timed(stage: str, w0: float, c0: float) -> None:
            took[stage].append((_ms(w0, time.perf_counter()), _ms(c0, time.process_time())))

        try:
            asgi = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://app", headers=headers
            )
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers) as http:
                for _, text in asked[:20]:  # warm: prepared statements, the model
                    http.post(path, json={"query": text + " warm"})
                    await asgi.post(path, json={"query": text + " warm"})
                    await run_query(svc, caller, context_id, QueryInput(text + " warm"))
                for rnd in range(args.rounds):
                    for n, (_, text) in enumerate(asked):
                        ways = ["http", "asgi", "use case"]
                        ways = ways[n % 3 :] + ways[: n % 3]
                        for way in ways:
                            said = f"{text} {rnd} {way[0]}"  # new text: no embedding cache hit
                            w0, c0 = time.perf_counter(), time.process_time()
                            if way == "http":
                                r = http.post(path, json={"query": said})
                                assert r.status_code == 200, r.text[:200]
                            elif way == "asgi":
                                r = await asgi.post(path, json={"query": said})
                                assert r.status_code == 200, r.text[:200]
                            else:
                                stages.active = True
                                answer = await run_query(svc, caller, context_id, QueryInput(said))
                                stages.active = False
                                timed("use case (run_query)", w0, c0)
                                stages.close()
                                w0, c0 = time.perf_counter(), time.process_time()
                                answer.model_dump_json(exclude_unset=True)
                                timed("answer rendering (model_dump_json)", w0, c0)
                                continue
                            timed(f"{way} (whole request)", w0, c0)
                        w0, c0 = time.perf_counter(), time.process_time()
                        await authenticate(svc.db, key, None)
                        timed("authentication (key lookup)", w0, c0)
                        w0, c0 = time.perf_counter(), time.process_time()
                        http.get("/api/v1/none")
                        timed("HTTP floor (a 404 over HTTP)", w0, c0)
            await asgi.aclose()
            if other is not None:
                compared = side_by_side(
                    {"this checkout": port, "--against": other_port},
                    {"this checkout": proc.pid, "--against": other.pid},
                    path,
                    headers,
                    [text for _, text in asked] * args.rounds,
                )
        finally:
            for server in (proc, other):
                if server is not None:
                    stop_serve(server)
    if args.against:
        took.update(compared)
    out = {stage: summary(values) for stage, values in took.items()}
    out.update({stage: summary(values) for stage, values in sorted(stages.all.items())})
    return {
        "memories": args.size,
        "queries": args.queries * args.rounds,
        "stages": out,
        "load_average": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--against", default="", help="another checkout: A/B over HTTP")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = asyncio.run(run(args))
    if args.json:
        print(json.dumps(r, indent=2))
        return
    STDERR.print(
        f"{r['memories']:,} memories in one Context, {r['queries']} queries each way;"
        f" load average {r['load_average']}"
    )
    title = "/query (hybrid, limit 10): stages, ms (wall p50 / p95, CPU p50; A/B: server CPU)"
    table = Table(title=title)
    for column in ("stage", "calls", "wall p50", "wall p95", "CPU p50"):
        table.add_column(column, justify="right")
    for stage, row in r["stages"].items():
        table.add_row(
            stage, str(row["n"]), str(row["wall_p50"]), str(row["wall_p95"]), str(row["cpu_p50"])
        )
    table_console().print(table)


if __name__ == "__main__":
    main()
