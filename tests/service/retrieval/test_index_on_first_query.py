"""A Context that was just filled gets its vector indexes from its first query: recall finds
it past `MEMWARDEN_VECTOR_INDEX_THRESHOLD` without them and queues their build, a worker
builds them, and the next plan walks them; the periodic job's tick is not waited for, and a
build longer than the pool's statement timeout is not cut."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import numpy as np
import pytest

from memwarden.domain.ids import new_id
from memwarden.retrieval import vector_plan as plans
from memwarden.retrieval.indexing import BUILD_TASK
from memwarden.store import vector_index
from memwarden.store.bulk import BulkRecord, copy_chunks, copy_records
from tests.service.usecases import query
from tests.support.services import ContextKey, ServiceHarness

DIM = 384


def _fill(h: ServiceHarness, ctx: ContextKey, count: int, seed: int) -> None:
    """`count` embedded records and a chunk per four, written as one bulk load."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((count, DIM))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    rows = [
        BulkRecord(new_id(), "attribute", f"record {n} about tea", v) for n, v in enumerate(vectors)
    ]

    async def go() -> None:
        async with h.services.db.transaction() as conn:
            await conn.execute("SET LOCAL statement_timeout = 0")  # the load is not under test
            await copy_records(conn, ctx.id, rows)
            chunks = ((f"chunk {n} about tea", vectors[n]) for n in range(0, count, 4))
            await copy_chunks(conn, ctx.id, ctx.caller.principal_id, chunks)

    h.run(go())


def _queued(sql: Callable[..., list[tuple]], context_id: uuid.UUID) -> list[tuple]:
    return sql(
        "SELECT status FROM procrastinate_jobs WHERE task_name = %s AND args->>'context_id' = %s",
        (BUILD_TASK, str(context_id)),
    )


def _indexes(h: ServiceHarness) -> dict[str, bool]:
    async def go() -> dict[str, bool]:
        async with h.services.db.connection() as conn:
            return await vector_index.indexes(conn)

    return h.run(go())


def _plan(h: ServiceHarness, ctx: ContextKey) -> plans.VectorPlan:
    async def go() -> plans.VectorPlan:
        async with h.services.db.connection() as conn:
            return await plans.vector_plan(h.services, conn, ctx.id)

    return h.run(go())


def _worker(h: ServiceHarness) -> None:
    """A real worker that runs what the maintenance queue holds, then stops."""
    h.run(
        h.services.jobs.run_worker_async(
            queues=["maintenance"], wait=False, install_signal_handlers=False
        )
    )


def test_a_context_past_the_threshold_is_indexed_from_its_first_query_and_walked_after(
    services_with: Callable[..., ServiceHarness],
    sql: Callable[..., list[tuple]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = services_with(vector_index_threshold=50)
    big, small = h.make_context("big"), h.make_context("small")
    _fill(h, big, 60, seed=1)
    _fill(h, small, 40, seed=2)
    sql("DELETE FROM procrastinate_jobs")
    assert query(h, big, "tea")  # answered by the exact scan meanwhile
    assert query(h, small, "tea")
    assert _queued(sql, big.id) == [("todo",)]
    assert _queued(sql, small.id) == []
    assert query(h, big, "tea again")  # asked once, not at every query
    assert _queued(sql, big.id) == [("todo",)]
    assert vector_index.index_name(big.id) not in _indexes(h)
    assert _plan(h, big).records_indexed is False

    _worker(h)
    assert _queued(sql, big.id) == [("succeeded",)]
    built = _indexes(h)
    assert built.get(vector_index.index_name(big.id)) is True
    assert built.get(vector_index.chunk_index_name(big.id)) is True
    assert vector_index.index_name(small.id) not in built
    monkeypatch.setattr(plans, "PENDING_TTL_S", 0.0)  # the process reads the catalog again
    walked = _plan(h, big)
    assert walked.records_indexed and walked.chunks_indexed
    assert query(h, big, "tea")
    assert _queued(sql, big.id) == [("succeeded",)]  # indexed: nothing asked again


def test_a_build_longer_than_the_statement_timeout_finishes_and_the_timeout_stays(
    services_with: Callable[..., ServiceHarness],
) -> None:
    h = services_with(vector_index_threshold=50)
    ctx = h.make_context()
    _fill(h, ctx, 4000, seed=3)  # an HNSW build of 4,000 rows takes seconds here

    async def go() -> tuple[float, str]:
        async with h.services.db.connection() as conn:
            await conn.execute("SET statement_timeout = '200ms'")  # as the pool sets it
            started = time.monotonic()
            await vector_index.build_index(conn, ctx.id)
            took = time.monotonic() - started
            cur = await conn.execute("SHOW statement_timeout")
            row = await cur.fetchone()
            assert row is not None
            await conn.execute("RESET statement_timeout")
            return took, str(row["statement_timeout"])

    took, after = h.run(go())
    assert took > 0.2  # the build outlasted the timeout, which would have cut it
    assert _indexes(h).get(vector_index.index_name(ctx.id)) is True
    assert after == "200ms"  # the connection keeps the timeout it had
