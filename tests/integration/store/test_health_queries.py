"""The store's health queries, against a real migrated database."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from memwarden.store import health as store_health
from memwarden.store.db import Database
from memwarden.store.migrate import available


def _run(db_url: str, use: Callable[..., object]) -> object:
    async def go() -> object:
        db = Database(db_url)
        await db.open()
        try:
            async with db.connection() as conn:
                return await use(conn)  # type: ignore[misc]
        finally:
            await db.close()

    return asyncio.run(go())


def test_database_info_reports_the_latest_applied_migration_and_pgvector(db_url: str) -> None:
    info = _run(db_url, store_health.database_info)
    assert isinstance(info, store_health.DatabaseInfo)
    assert info.schema_version == max(m.version for m in available())
    assert info.pgvector and info.version


def test_only_workers_with_a_recent_heartbeat_count(
    db_url: str, sql: Callable[..., list[tuple]]
) -> None:
    sql("INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now())")
    sql("INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now() - interval '10 minutes')")
    assert _run(db_url, lambda conn: store_health.count_live_workers(conn, 60)) == 1
