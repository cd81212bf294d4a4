"""EXPLAIN (ANALYZE, BUFFERS) of every statement one hybrid /query runs, on bench_query's data.

Loads the same synthetic memories as `bench_query.py` (COPY over many Contexts), then for a
sample of queries runs each named statement of the /query path under EXPLAIN and reports the
median planning and execution time per statement, plus one full plan of each (`--plans`).
Run: `python benchmarks/profile_query.py [--size 100000] [--queries 40] [--plans]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
from pgvector import Vector

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import services
from bench_query import load

from memwarden.retrieval.indexing import index_large_contexts
from memwarden.retrieval.query import or_query
from memwarden.retrieval.search import candidate_count
from memwarden.retrieval.vector_plan import VectorPlan, plan_for
from memwarden.store import vector_index
from memwarden.store.batch import Statement
from memwarden.store.queries import q
from memwarden.store.recall import MATCH_CAP


def statements(
    caller: Any, text: str, vector: list[float], ids: list[Any], ann: VectorPlan
) -> dict[str, dict]:
    """Each /query statement's name and parameters, as `run_query` binds them (limit 10)."""
    who = {"context_id": caller.context_id, "prefixes": [""], "subject": caller.subject}
    gate = {**who, "visibility": None, "kinds": None, "categories": None}
    pool = candidate_count(10)
    vec = Vector(vector)
    return {
        "search_lexical": {**gate, "query": text, "limit": pool, "match_cap": MATCH_CAP},
        "search_vector" if ann.records_indexed else "search_vector_exact": {
            **gate,
            "vector": vec,
            "limit": pool,
        },
        "recall_chunks_lexical": {**who, "query": text, "limit": pool, "match_cap": MATCH_CAP},
        "recall_chunks_vector" if ann.chunks_indexed else "recall_chunks_vector_exact": {
            **who,
            "vector": vec,
            "limit": pool,
        },
        "recall_record_rows": {**who, "ids": ids, "history": False},
        "recall_count": {"context_id": caller.context_id, "ids": ids},
    }


async def explain(conn: Any, name: str, params: dict) -> dict:
    async with conn.transaction(force_rollback=True):  # recall_count writes: undo it
        cur = await conn.execute(
            "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + q(name), params, prepare=False
        )
        row = await cur.fetchone()
    return row["QUERY PLAN"][0]


async def query_statements(
    conn: Any, picked: tuple[Any, list, Any], rng: random.Random, np_rng: Any
) -> dict[str, tuple[Statement | None, dict]]:
    """One query's statements on one of bench_query's Contexts, by name: the walk depth
    recall sets before it (None for all but the walks) and its parameters."""
    caller, records, vectors = picked
    ann = plan_for(await vector_index.profile(conn, caller.context_id))
    target = rng.randrange(len(records))
    text = or_query(" ".join(rng.sample(records[target][1].split(), 3)))
    noisy = vectors[target] + np_rng.standard_normal(384).astype(np.float32) * 0.05
    qvec = (noisy / np.linalg.norm(noisy)).tolist()
    ids = [rid for rid, _ in rng.sample(records, min(10, len(records)))]
    depths = {"search_vector": ann.depth, "recall_chunks_vector": ann.chunk_depth}
    found = statements(caller, text, qvec, ids, ann)
    return {name: (depths.get(name), params) for name, params in found.items()}


async def explain_query(
    conn: Any, picked: tuple[Any, list, Any], rng: random.Random, np_rng: Any
) -> dict[str, dict]:
    """Each statement of one query under EXPLAIN ANALYZE (a walk at its index's depth):
    its plan, by name."""
    out = {}
    for name, (depth, params) in (await query_statements(conn, picked, rng, np_rng)).items():
        if depth is not None:
            await conn.execute(q(depth[0]), depth[1])
        out[name] = await explain(conn, name, params)
    return out


async def query_locks(
    conn: Any, picked: tuple[Any, list, Any], rng: random.Random, np_rng: Any
) -> int:
    """The relation locks one query's statements hold together in one transaction (a
    statement locks the tables and indexes it planned around), rolled back after."""
    found = await query_statements(conn, picked, rng, np_rng)
    async with conn.transaction(force_rollback=True):
        for name, (depth, params) in found.items():
            if depth is not None:
                await conn.execute(q(depth[0]), depth[1])
            await conn.execute(q(name), params, prepare=False)
        cur = await conn.execute(
            "SELECT count(*) AS locks FROM pg_locks"
            " WHERE pid = pg_backend_pid() AND locktype = 'relation'"
            " AND relation NOT IN (SELECT oid FROM pg_class"
            "                      WHERE relnamespace = 'pg_catalog'::regnamespace)"
        )
        row = await cur.fetchone()
    return int(row["locks"])


async def profile(size: int, queries: int, show_plans: bool, contexts: int = 100) -> None:
    rng, np_rng = random.Random(5), np.random.default_rng(5)
    async with services() as svc:
        data = await load(svc, size, contexts, rng, np_rng)
        await index_large_contexts(svc.db)
        async with svc.db.connection() as conn:
            await conn.execute("VACUUM ANALYZE")  # steady state, as autovacuum leaves it
        timings: dict[str, list[tuple[float, float]]] = {}
        plans: dict[str, dict] = {}
        async with svc.db.connection() as conn:
            for _ in range(queries):
                for name, plan in (
                    await explain_query(conn, rng.choice(data), rng, np_rng)
                ).items():
                    timings.setdefault(name, []).append(
                        (plan["Planning Time"], plan["Execution Time"])
                    )
                    plans[name] = plan
    print(f"{size:,} memories, {queries} queries: median / max ms")
    print(f"{'statement':<24} {'planning':>16} {'execution':>16}")
    for name, values in timings.items():
        plan_ms = [p for p, _ in values]
        exec_ms = [e for _, e in values]
        print(
            f"{name:<24} {statistics.median(plan_ms):7.2f} / {max(plan_ms):6.2f}"
            f" {statistics.median(exec_ms):7.2f} / {max(exec_ms):6.2f}"
        )
    if show_plans:
        for name, plan in plans.items():
            print(f"\n== {name}")
            _print_node(plan["Plan"], 0)


def _print_node(node: dict, depth: int) -> None:
    buffers = node.get("Shared Hit Blocks", 0) + node.get("Shared Read Blocks", 0)
    print(
        f"{'  ' * depth}{node['Node Type']} {node.get('Relation Name', '')}"
        f"{node.get('Index Name', '')} rows={node.get('Actual Rows')}"
        f" loops={node.get('Actual Loops')} time={node.get('Actual Total Time')} ms"
        f" buffers={buffers}"
    )
    for child in node.get("Plans", []):
        _print_node(child, depth + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--contexts", type=int, default=100)
    parser.add_argument("--plans", action="store_true")
    args = parser.parse_args()
    asyncio.run(profile(args.size, args.queries, args.plans, args.contexts))


if __name__ == "__main__":
    main()
