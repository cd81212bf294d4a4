"""Planning time of each /query statement against the number of per-Context indexes.

Every large Context gets partial HNSW indexes of its own (`retrieval/indexing.py`). The
planner weighs every index of a table for every statement on it, so each index added costs
planning time on every Context's queries, indexed or not. This loads `--contexts` small
Contexts (bench_query's synthetic corpus), then indexes them in stages (`--stages`, the
number indexed at each) and reports, per stage, the median and p95 planning and execution
time of each statement of a hybrid /query, under `EXPLAIN ANALYZE`, on Contexts never indexed
(ten loaded beside the others) and on indexed ones, and how many relation locks one /query's
statements hold together (each statement locks the indexes it planned around).
Run: `python benchmarks/bench_many_indexes.py [--contexts 1000] [--stages 0,100,300,1000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _tables import table_console
from rich.console import Console
from rich.progress import track
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import services
from bench_query import load
from profile_query import explain_query, query_locks

from memwarden.store import vector_index

STDERR = Console(stderr=True)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


async def sample(
    svc: Any, pool: list, queries: int, rng: random.Random, np_rng: Any
) -> tuple[list[tuple[str, list[float], list[float]]], int]:
    """Each statement's planning and execution times over `queries` queries on `pool`, and
    the most relation locks one query's statements held together (of ten queries)."""
    timings: dict[str, list[tuple[float, float]]] = {}
    async with svc.db.connection() as conn:
        for _ in range(queries):
            for name, plan in (await explain_query(conn, rng.choice(pool), rng, np_rng)).items():
                timings.setdefault(name, []).append((plan["Planning Time"], plan["Execution Time"]))
        most_locks = max(
            [await query_locks(conn, rng.choice(pool), rng, np_rng) for _ in range(10)]
        )
    return [
        (name, [p for p, _ in values], [e for _, e in values]) for name, values in timings.items()
    ], most_locks


async def run(contexts: int, per_context: int, stages: list[int], queries: int) -> None:
    rng, np_rng = random.Random(7), np.random.default_rng(7)
    rows: list[tuple[int, str, str, list[float], list[float]]] = []
    build_s: dict[int, float] = {}
    locks: dict[tuple[int, str], int] = {}
    async with services() as svc:
        # bench_query's loader indexes Contexts past the threshold: keep them all below it.
        loaded = await load(svc, (contexts + 10) * per_context, contexts + 10, rng, np_rng)
        data, never = loaded[:contexts], loaded[contexts:]
        indexed = 0
        for stage in stages:
            started = time.perf_counter()
            async with svc.db.connection() as conn:
                for caller, _, _ in track(
                    data[indexed:stage], description=f"indexing to {stage}", console=STDERR
                ):
                    await vector_index.build_index(conn, caller.context_id)
                await conn.execute("ANALYZE memory_record")
                await conn.execute("ANALYZE chunk")
            build_s[stage] = time.perf_counter() - started
            indexed = stage
            for probe, pool in (("not indexed", never), ("indexed", data[:stage])):
                if pool:
                    sampled, most_locks = await sample(svc, pool, queries, rng, np_rng)
                    for name, plan_ms, exec_ms in sampled:
                        rows.append((stage, probe, name, plan_ms, exec_ms))
                    locks[(stage, probe)] = most_locks
    table = Table(
        title=f"{contexts + 10:,} Contexts of {per_context} records; {queries} queries per "
        "stage and kind of Context; ms"
    )
    for column in ("indexed Contexts", "queried Context", "statement"):
        table.add_column(column)
    for column in ("planning p50", "planning p95", "execution p50"):
        table.add_column(column, justify="right")
    for stage, probe, name, plan_ms, exec_ms in rows:
        table.add_row(
            f"{stage:,}",
            probe,
            name,
            f"{statistics.median(plan_ms):.2f}",
            f"{p95(plan_ms):.2f}",
            f"{statistics.median(exec_ms):.2f}",
        )
    table_console().print(table)
    for stage, seconds in build_s.items():
        print(f"indexing up to {stage:,} Contexts: {seconds:.0f} s")
    for (stage, probe), held in locks.items():
        print(f"{stage:,} indexed, {probe} Context: at most {held:,} relation locks per /query")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contexts", type=int, default=1000)
    parser.add_argument("--per-context", type=int, default=20)
    parser.add_argument("--stages", default="0,100,300,1000")
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args()
    stages = sorted(int(s) for s in args.stages.split(","))
    if stages[-1] > args.contexts:
        parser.error("the last stage cannot index more Contexts than are loaded")
    asyncio.run(run(args.contexts, args.per_context, stages, args.queries))


if __name__ == "__main__":
    main()
