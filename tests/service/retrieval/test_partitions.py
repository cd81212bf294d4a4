"""memory_record and chunk are partitioned by a hash of context_id (migration 0022): a
Context's statements plan and lock its own partition only, so the per-Context indexes of
other partitions cost its queries nothing, however many Contexts have one."""

from __future__ import annotations

import re
import uuid
from typing import Any

import numpy as np
import psycopg
import pytest

from memwarden.retrieval.indexing import index_large_contexts
from memwarden.retrieval.search import search_memory
from memwarden.store import vector_index
from memwarden.store.batch import Statement, run_all
from memwarden.store.queries import q
from memwarden.store.search import SearchFilter, lexical_statement, vector_statement
from tests.service import usecases
from tests.support.bulk_texts import load_texts
from tests.support.services import ServiceHarness

DIM = 384


def _load(svc: ServiceHarness, ctx: Any, count: int) -> None:
    bodies = [f"a harvest note, number {n}" for n in range(count)]
    load_texts(svc, ctx, bodies, chunks=True, kind="note")


def _partition(svc: ServiceHarness, table: str, context_id: uuid.UUID) -> str:
    async def go() -> str:
        async with svc.services.db.connection() as conn:
            return await vector_index.partition(conn, table, context_id)

    return svc.run(go())


def _apart(svc: ServiceHarness) -> tuple[Any, Any]:
    """Two Contexts whose rows live in different partitions."""
    first = svc.make_context()
    home = _partition(svc, "memory_record", first.id)
    for _ in range(40):  # 16 partitions: a miss 40 times running is about 1 in 10^47
        second = svc.make_context()
        if _partition(svc, "memory_record", second.id) != home:
            return first, second
    raise AssertionError("every Context landed in the same partition: is the table partitioned?")


def _table_of(svc: ServiceHarness, index: str) -> str:
    async def go() -> str:
        async with svc.services.db.connection() as conn:
            cur = await conn.execute(
                "SELECT indrelid::regclass::text AS t FROM pg_index"
                " WHERE indexrelid = %s::regclass",
                (index,),
            )
            row = await cur.fetchone()
            assert row is not None
            return str(row["t"])

    return svc.run(go())


def test_each_context_lives_in_one_partition_and_its_own_indexes_are_built_there(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    _load(svc, ctx, 60)
    assert svc.run(index_large_contexts(svc.services.db, threshold=50)) == [ctx.id]
    records, chunks = (_partition(svc, t, ctx.id) for t in ("memory_record", "chunk"))
    assert records.startswith("memory_record_p") and chunks.startswith("chunk_p")
    assert _table_of(svc, vector_index.index_name(ctx.id)) == records
    assert _table_of(svc, vector_index.chunk_index_name(ctx.id)) == chunks

    async def homes() -> set[tuple[str, str]]:
        async with svc.services.db.connection() as conn:
            found: set[tuple[str, str]] = set()
            for table in ("memory_record", "chunk"):
                cur = await conn.execute(
                    f"SELECT DISTINCT tableoid::regclass::text AS t FROM {table}"
                    " WHERE context_id = %s",
                    (ctx.id,),
                )
                found |= {(table, r["t"]) for r in await cur.fetchall()}
            return found

    assert svc.run(homes()) == {("memory_record", records), ("chunk", chunks)}


def test_a_query_neither_plans_nor_locks_another_partitions_context_indexes(
    svc: ServiceHarness,
) -> None:
    mine, other = _apart(svc)
    for ctx in (mine, other):
        _load(svc, ctx, 60)
    assert set(svc.run(index_large_contexts(svc.services.db, threshold=50))) == {
        mine.id,
        other.id,
    }
    vector = np.random.default_rng(1).standard_normal(DIM).tolist()

    async def locked_during_a_search() -> set[str]:
        async with svc.services.db.transaction() as conn:
            found = await search_memory(
                conn,
                context_id=mine.id,
                prefixes=("",),
                subject=mine.caller.subject,
                vector=vector,
                query="harvest",
            )
            assert found.hits
            cur = await conn.execute(
                "SELECT relation::regclass::text AS name FROM pg_locks"
                " WHERE pid = pg_backend_pid() AND locktype = 'relation'"
            )
            return {r["name"] for r in await cur.fetchall()}

    locked = svc.run(locked_during_a_search())
    assert vector_index.index_name(mine.id) in locked  # its own walk
    assert vector_index.index_name(other.id) not in locked
    assert vector_index.chunk_index_name(other.id) not in locked
    assert {n for n in locked if re.fullmatch(r"memory_record_p\d+", n)} == {
        _partition(svc, "memory_record", mine.id)
    }


def _plan_counts(svc: ServiceHarness, statements: list[Statement], runs: int) -> dict[str, Any]:
    """Run `statements` through run_all `runs` times on one connection: each one's generic
    and custom plan counts once psycopg prepared it, and the plan cache mode after."""

    async def go() -> dict[str, Any]:
        async with svc.services.db.connection() as conn:
            for _ in range(runs):
                await run_all(conn, statements)
            counts: dict[str, Any] = {}
            for name, _ in statements:
                head = q(name).split("%")[0]  # as sent: psycopg numbers the parameters
                cur = await conn.execute(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                    " WHERE starts_with(statement, %s)",
                    (head,),
                )
                counts[name] = await cur.fetchone()
            cur = await conn.execute("SELECT current_setting('plan_cache_mode') AS mode")
            counts["mode"] = (await cur.fetchone())["mode"]
            return counts

    return svc.run(go())


def test_querys_statements_on_the_partitioned_tables_reuse_one_generic_plan(
    svc: ServiceHarness,
) -> None:
    # Left to the plan cache, a generic plan over every partition loses to a custom one over
    # the caller's, and each call would be planned again.
    ctx = svc.make_context()
    _load(svc, ctx, 30)
    where = SearchFilter(ctx.id, ("",), ctx.caller.subject)
    vector = np.random.default_rng(2).standard_normal(DIM).tolist()
    statements = [
        lexical_statement(where, "harvest", 20),
        vector_statement(where, vector, 20, indexed=False),
    ]
    counts = _plan_counts(svc, statements, runs=9)
    for name, _ in statements:
        assert counts[name] is not None, f"{name} was never prepared"
        assert counts[name]["generic_plans"] >= 3 and counts[name]["custom_plans"] == 0
    assert counts["mode"] == "auto"  # reset: the walks that follow need custom plans


def test_a_failed_batch_leaves_the_plan_cache_to_its_own_choice(svc: ServiceHarness) -> None:
    # Holds because the batch is one pipeline, one implicit transaction whose rollback undoes
    # the setting; sent apart from its statements, the setting would outlive the failure.
    ctx = svc.make_context()
    where = SearchFilter(ctx.id, ("",), ctx.caller.subject)
    bad = lexical_statement(where, "harvest", -1)  # LIMIT must not be negative

    async def go() -> str:
        async with svc.services.db.connection() as conn:
            with pytest.raises(psycopg.errors.InvalidRowCountInLimitClause):
                await run_all(conn, [bad, lexical_statement(where, "harvest", 5)])
            cur = await conn.execute("SELECT current_setting('plan_cache_mode') AS mode")
            return str((await cur.fetchone())["mode"])

    assert svc.run(go()) == "auto"


def test_a_write_transaction_reuses_generic_plans_and_leaves_none_behind(
    svc: ServiceHarness,
) -> None:
    # A turn's statements read and write one Context of the partitioned tables; planned
    # anew at every call they cost each write a few milliseconds.
    ctx = svc.make_context()
    for n in range(9):
        usecases.facts(svc, ctx, f"Alice moved to Lyon in {2000 + n}.", infer="none")

    async def go() -> tuple[Any, str]:
        async with svc.services.db.connection() as conn:  # the one the writes used
            cur = await conn.execute(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE starts_with(statement, %s)",
                (q("ingest_insert_turn").split("%")[0],),
            )
            plans = await cur.fetchone()
            cur = await conn.execute("SELECT current_setting('plan_cache_mode') AS mode")
            return plans, str((await cur.fetchone())["mode"])

    plans, mode = svc.run(go())
    assert plans is not None, "the turn insert was never prepared on this connection"
    assert plans["custom_plans"] == 0 and plans["generic_plans"] >= 3
    assert mode == "auto"
