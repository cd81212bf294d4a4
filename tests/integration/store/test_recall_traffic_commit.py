"""Recall traffic's upsert: one statement that commits without a WAL flush, for its own
transaction only (store/queries/recall.sql, `recall_count`)."""

from __future__ import annotations

import asyncio
import uuid

import psycopg

from memwarden.retrieval import traffic
from memwarden.store.queries import q


async def _setting(conn: psycopg.AsyncConnection) -> str:
    cur = await conn.execute("SHOW synchronous_commit")
    row = await cur.fetchone()
    assert row is not None
    return str(row[0])


def test_a_read_that_counts_its_traffic_commits_asynchronously_and_the_session_stays_synchronous(
    db_url: str, sql
) -> None:
    context_id, record_id = uuid.uuid4(), uuid.uuid4()

    async def read_then_count() -> tuple[str, str, str]:
        conn = await psycopg.AsyncConnection.connect(db_url, autocommit=True)
        async with conn:
            before = await _setting(conn)
            async with conn.pipeline():  # as /query sends the winners' rows and the count
                await conn.execute("SELECT 1")
                for name, params in traffic.statements(context_id, [record_id]):
                    await conn.execute(q(name), params)
                inside = await conn.execute("SELECT current_setting('synchronous_commit')")
            row = await inside.fetchone()
            assert row is not None
            return before, str(row[0]), await _setting(conn)

    before, inside, after = asyncio.run(read_then_count())
    assert (before, inside, after) == ("on", "off", "on")
    assert sql("SELECT record_id, hits FROM recall_event") == [(record_id, 1)]


def test_traffic_counted_on_its_own_adds_one_hit_per_request_and_leaves_the_session_synchronous(
    db_url: str, sql
) -> None:
    context_id, first, second = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()

    async def count_twice() -> str:
        conn = await psycopg.AsyncConnection.connect(db_url, autocommit=True)
        async with conn:
            await traffic.count(conn, context_id, [first, second, first])
            await traffic.count(conn, context_id, [first])
            return await _setting(conn)

    assert asyncio.run(count_twice()) == "on"
    counted = dict(
        sql("SELECT record_id, hits FROM recall_event WHERE context_id = %s", [context_id])
    )
    assert counted == {first: 2, second: 1}
