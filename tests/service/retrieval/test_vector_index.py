"""Per-Context vector indexes: a Context that passes the threshold gets its own HNSW index
by the periodic job, the search walks it, and a filter never leaves fewer hits than
`limit` while enough records are eligible (the walk goes on, or the exact scan takes over)."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from memwarden.domain.ids import new_id
from memwarden.retrieval.indexing import VECTOR_INDEX_THRESHOLD, index_large_contexts
from memwarden.retrieval.query import QueryInput, dense_candidates, query_plan
from memwarden.retrieval.search import search_memory
from memwarden.retrieval.vector_plan import VectorPlan, plan_for, walk_depth_for
from memwarden.store import vector_index
from memwarden.store.bulk import BulkRecord, copy_chunks, copy_records
from memwarden.store.queries import q
from memwarden.store.recall import Reader, chunks_vector
from memwarden.store.search import SearchFilter, vector_statement
from tests.support.services import ServiceHarness

DIM = 384


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def _clustered(rng: np.random.Generator, count: int, clusters: int = 16) -> np.ndarray:
    """Unit vectors around fixed centres, as real embeddings cluster by topic."""
    centres = _unit(np.random.default_rng(0).standard_normal((clusters, DIM)))
    picks = rng.integers(0, clusters, count)
    return _unit(centres[picks] + rng.standard_normal((count, DIM)) * 0.06)


def _load(
    svc: ServiceHarness,
    context_id: uuid.UUID,
    vectors: np.ndarray,
    kind: str,
    category: str = "knowledge",
) -> list:
    rows = [BulkRecord(new_id(), kind, f"record {n}", v) for n, v in enumerate(vectors)]

    async def go() -> None:
        async with svc.services.db.transaction() as conn:
            await copy_records(conn, context_id, rows, category=category)

    svc.run(go())
    return rows


def _search(svc: ServiceHarness, ctx: Any, vector: np.ndarray, **kw: Any) -> list[uuid.UUID]:
    async def go(settings: tuple[str, ...]) -> list[uuid.UUID]:
        async with svc.services.db.connection() as conn:
            for setting in settings:
                await conn.execute(setting)
            try:
                found = await search_memory(
                    conn,
                    context_id=ctx.id,
                    prefixes=("",),
                    subject=ctx.caller.subject,
                    vector=vector.tolist(),
                    **kw,
                )
            finally:
                await conn.execute("RESET ALL")
                await conn.execute(q("session_vector_settings"))
        return [h.record_id for h in found.hits]

    return svc.run(go(kw.pop("settings", ())))


def _plan(svc: ServiceHarness, ctx: Any, vector: np.ndarray) -> str:
    """The plan of the record statement recall picks for this Context, at its depth."""

    async def go() -> str:
        async with svc.services.db.connection() as conn:
            ann = plan_for(await vector_index.profile(conn, ctx.id))
            name, params = vector_statement(
                SearchFilter(ctx.id, ("",), ctx.caller.subject, None, None, None),
                vector.tolist(),
                10,
                indexed=ann.records_indexed,
            )
            if ann.depth is not None:
                await conn.execute(q(ann.depth[0]), ann.depth[1])
            cur = await conn.execute("EXPLAIN " + q(name), params, prepare=False)
            plan = "\n".join(r["QUERY PLAN"] for r in await cur.fetchall())
            await conn.execute(q("session_vector_settings"))
            return plan

    return svc.run(go())


def test_a_context_past_the_threshold_gets_its_own_index_and_a_small_one_does_not(
    svc: ServiceHarness,
) -> None:
    rng = np.random.default_rng(1)
    big, small = svc.make_context(), svc.make_context()
    _load(svc, big.id, _unit(rng.standard_normal((60, DIM))), "attribute")
    _load(svc, small.id, _unit(rng.standard_normal((20, DIM))), "attribute")
    built = svc.run(index_large_contexts(svc.services.db, threshold=50))
    assert built == [big.id]

    async def names() -> dict[str, bool]:
        async with svc.services.db.connection() as conn:
            return await vector_index.indexes(conn)

    assert svc.run(names()).get(vector_index.index_name(big.id)) is True
    assert vector_index.index_name(small.id) not in svc.run(names())
    assert svc.run(index_large_contexts(svc.services.db, threshold=50)) == []  # once only
    assert vector_index.index_name(big.id) in _plan(svc, big, rng.standard_normal(DIM))
    assert "memory_record_vec_" not in _plan(svc, small, rng.standard_normal(DIM))


def test_a_filter_never_leaves_fewer_hits_than_limit_when_enough_are_eligible(
    svc: ServiceHarness,
) -> None:
    rng = np.random.default_rng(2)
    ctx = svc.make_context()
    near = _unit(rng.standard_normal(DIM))
    _load(svc, ctx.id, _unit(near + rng.standard_normal((400, DIM)) * 0.05), "attribute")
    far = _load(
        svc, ctx.id, _unit(-near + rng.standard_normal((12, DIM)) * 0.05), "attribute", "identity"
    )
    svc.run(index_large_contexts(svc.services.db, threshold=100))
    want = {r.id for r in far}
    walk = ("SET enable_sort = off", "SET enable_bitmapscan = off")  # the index, not a sort
    walked = _search(svc, ctx, near, categories=["identity"], limit=10, settings=walk)
    assert len(walked) == 10 and set(walked) <= want
    # the walk gives up after 10 tuples here, with 2 of the 10: the exact scan answers
    cut = _search(
        svc,
        ctx,
        near,
        categories=["identity"],
        limit=10,
        settings=(*walk, "SET hnsw.max_scan_tuples = 10"),
    )
    assert len(cut) == 10 and set(cut) <= want


def test_an_indexed_search_finds_the_exact_nearest_records(svc: ServiceHarness) -> None:
    rng = np.random.default_rng(3)
    ctx = svc.make_context()
    centres = _unit(rng.standard_normal((8, DIM)))
    vectors = _unit(centres[rng.integers(0, 8, 600)] + rng.standard_normal((600, DIM)) * 0.08)
    rows = _load(svc, ctx.id, vectors, "attribute")
    svc.run(index_large_contexts(svc.services.db, threshold=100))
    recalls = []
    for n in range(20):
        query = _unit(vectors[n * 7] + rng.standard_normal(DIM) * 0.05)
        exact = {rows[i].id for i in np.argsort(-(vectors @ query))[:10]}
        recalls.append(len(exact & set(_search(svc, ctx, query, limit=10))) / 10)
    assert np.mean(recalls) >= 0.95


def test_the_index_job_is_registered_as_a_periodic_maintenance_job(svc: ServiceHarness) -> None:
    app = svc.services.jobs
    periodic = {p.task.name: p for p in app.periodic_registry.periodic_tasks.values()}
    assert "memwarden:vector_indexes" in periodic
    task = periodic["memwarden:vector_indexes"].task
    assert task.queue == "maintenance" and task.lock == "vector_indexes"


def test_a_context_at_the_threshold_is_walked_through_its_index_at_recalls_depth(
    svc: ServiceHarness,
) -> None:
    # At 5,000 rows a walk keeping 400 candidates cost the planner more than reading every
    # row, so it scanned exactly although the Context had its index; recall's depth for an
    # index this size keeps the walk cheaper than the scan.
    rng = np.random.default_rng(4)
    ctx = svc.make_context()
    _load(svc, ctx.id, _clustered(rng, VECTOR_INDEX_THRESHOLD), "attribute")
    assert svc.run(index_large_contexts(svc.services.db)) == [ctx.id]

    async def analyze() -> None:
        async with svc.services.db.connection() as conn:
            await conn.execute("ANALYZE memory_record")

    svc.run(analyze())
    assert vector_index.index_name(ctx.id) in _plan(svc, ctx, rng.standard_normal(DIM))


def test_the_walk_depth_grows_with_the_index_and_nothing_is_set_without_one() -> None:
    sizes = (-1, 0, 19_999, 20_000, 49_999, 50_000, 100_000, 5e6)
    assert [walk_depth_for(n) for n in sizes] == [100, 100, 100, 200, 200, 400, 400, 400]
    assert plan_for(vector_index.VectorProfile(None, None)) == VectorPlan(False, False, None, None)
    chunks_only = plan_for(vector_index.VectorProfile(None, 8_000.0))
    assert chunks_only == VectorPlan(False, True, None, ("set_walk_depth", {"ef_search": "100"}))


def test_each_index_is_walked_at_the_depth_its_own_size_needs() -> None:
    # A Context of 120,000 records with 6,000 chunks: at the records' depth (400) the
    # planner reads all 6,000 chunks rather than walk their index (it scanned a 5,000-row
    # index at 400), so the chunk walk gets the depth of its own index, set just before it.
    ann = plan_for(vector_index.VectorProfile(120_000.0, 6_000.0))
    assert (ann.records_indexed, ann.chunks_indexed) == (True, True)
    assert ann.depth == ("set_walk_depth", {"ef_search": "400"})
    assert ann.chunk_depth == ("set_walk_depth", {"ef_search": "100"})
    who = Reader(uuid.uuid4(), ("",), "s")
    plan = query_plan(who, QueryInput("apples", limit=10))
    sent = [
        (role, name, params.get("ef_search"))
        for role, (name, params) in dense_candidates(who, plan, [0.0] * DIM, ann)
    ]
    assert sent == [
        (None, "set_walk_depth", "400"),
        (False, "search_vector", None),
        (None, "set_walk_depth", "100"),
        (True, "recall_chunks_vector", None),
    ]


def test_a_small_contexts_exact_scan_is_prepared_and_an_index_walk_never_is(
    svc: ServiceHarness,
) -> None:
    # A generic plan cannot use a partial index, so only the exact statements may be
    # prepared; preparing them spares every small Context's recall its planning.
    rng = np.random.default_rng(5)
    small, big = svc.make_context(), svc.make_context()
    _load(svc, small.id, _unit(rng.standard_normal((30, DIM))), "attribute")
    _load(svc, big.id, _unit(rng.standard_normal((80, DIM))), "attribute")
    svc.run(index_large_contexts(svc.services.db, threshold=50))

    async def go() -> set[str]:
        async with svc.services.db.connection() as conn:
            for ctx in (small, big) * 8:
                await search_memory(
                    conn,
                    context_id=ctx.id,
                    prefixes=("",),
                    subject=ctx.caller.subject,
                    vector=_unit(rng.standard_normal(DIM)).tolist(),
                )
            cur = await conn.execute("SELECT statement FROM pg_prepared_statements")
            return {row["statement"] for row in await cur.fetchall()}

    prepared = "\n".join(svc.run(go()))
    first_line = {
        name: q(name).splitlines()[0] for name in ("search_vector_exact", "search_vector")
    }
    assert first_line["search_vector_exact"] in prepared
    assert first_line["search_vector"] not in prepared


def test_a_context_with_fewer_chunks_than_records_walks_its_chunk_index_too(
    svc: ServiceHarness,
) -> None:
    # A Context at the threshold with a chunk per four records (2,500 chunks at 10,000
    # records in the benchmark): at PostgreSQL's stock random_page_cost the planner read
    # every chunk and sorted them (4.8 ms) instead of walking their index (2.1 ms).
    rng = np.random.default_rng(6)
    ctx = svc.make_context()
    _load(svc, ctx.id, _clustered(rng, VECTOR_INDEX_THRESHOLD), "attribute")
    chunks = _clustered(rng, VECTOR_INDEX_THRESHOLD // 4)

    async def add_chunks() -> None:
        assert ctx.caller.principal_id is not None
        async with svc.services.db.transaction() as conn:
            await copy_chunks(
                conn,
                ctx.id,
                ctx.caller.principal_id,
                ((f"chunk {n}", v) for n, v in enumerate(chunks)),
            )

    svc.run(add_chunks())
    assert svc.run(index_large_contexts(svc.services.db)) == [ctx.id]

    async def chunk_plan() -> str:
        async with svc.services.db.connection() as conn:
            await conn.execute("ANALYZE chunk")
            ann = plan_for(await vector_index.profile(conn, ctx.id))
            assert ann.chunks_indexed and ann.chunk_depth is not None
            await conn.execute(q(ann.chunk_depth[0]), ann.chunk_depth[1])
            who = Reader(ctx.id, ("",), ctx.caller.subject)
            name, params = chunks_vector(who, chunks[0].tolist(), 50, indexed=True)
            cur = await conn.execute("EXPLAIN " + q(name), params, prepare=False)
            plan = "\n".join(r["QUERY PLAN"] for r in await cur.fetchall())
            await conn.execute(q("session_vector_settings"))
            return plan

    assert vector_index.chunk_index_name(ctx.id) in svc.run(chunk_plan())
