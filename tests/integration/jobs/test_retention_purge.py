"""The retention purge: driven by each Context's judge.retention_days, run by a real worker."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
from psycopg.types.json import Jsonb

from memwarden.bootstrap import build_services
from memwarden.config import ContextConfig, apply_patch, dump_config
from memwarden.domain.ids import new_id
from memwarden.jobs.retention import purge_expired
from memwarden.settings import Settings
from memwarden.store.db import Database


def _context(
    conn: psycopg.Connection, retention_days: int | None, raw: dict | None = None
) -> uuid.UUID:
    cid = new_id()
    config = (
        raw
        if raw is not None
        else dump_config(
            apply_patch(ContextConfig(), {"judge": {"retention_days": retention_days}})
        )
    )
    conn.execute(
        "INSERT INTO context (id, name, config) VALUES (%s, 'c', %s)", (cid, Jsonb(config))
    )
    return cid


def _judgement(
    conn: psycopg.Connection, cid: uuid.UUID, age_days: float, *, held: bool = False
) -> uuid.UUID:
    jid = new_id()
    conn.execute(
        "INSERT INTO judgement (context_id, id, gate, verdict, source, held, created_at)"
        " VALUES (%s, %s, 'input', 'warn', 'facts', %s, %s)",
        (cid, jid, held, datetime.now(UTC) - timedelta(days=age_days)),
    )
    return jid


def _ids(conn: psycopg.Connection, cid: uuid.UUID) -> set[uuid.UUID]:
    return {r[0] for r in conn.execute("SELECT id FROM judgement WHERE context_id = %s", (cid,))}


def _purge(db_url: str) -> object:
    async def go() -> object:
        db = Database(db_url)
        await db.open()
        try:
            return await purge_expired(db)
        finally:
            await db.close()

    return asyncio.run(go())


def test_entries_older_than_the_retention_period_are_purged(db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        cid = _context(conn, 30)
        old = _judgement(conn, cid, 31)
        young = _judgement(conn, cid, 29)
    _purge(db_url)
    with psycopg.connect(db_url) as conn:
        assert _ids(conn, cid) == {young}
        assert old not in _ids(conn, cid)


def test_zero_retention_keeps_entries_forever(db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        cid = _context(conn, 0)
        ancient = _judgement(conn, cid, 4000)
    _purge(db_url)
    with psycopg.connect(db_url) as conn:
        assert _ids(conn, cid) == {ancient}


def test_a_held_entry_awaiting_a_decision_is_kept(db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        cid = _context(conn, 1)
        held = _judgement(conn, cid, 10, held=True)
    _purge(db_url)
    with psycopg.connect(db_url) as conn:
        assert _ids(conn, cid) == {held}


def test_an_unreadable_configuration_is_skipped_not_defaulted(db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        cid = _context(conn, None, raw={"judge": {"retention_days": "soon"}})
        old = _judgement(conn, cid, 400)
    report = _purge(db_url)
    assert str(cid) in report.skipped_unreadable  # type: ignore[attr-defined]
    with psycopg.connect(db_url) as conn:
        assert _ids(conn, cid) == {old}


def test_expired_and_consumed_retained_inputs_are_purged(db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        cid = _context(conn, 0)
        keep, expired, used = (_judgement(conn, cid, 1) for _ in range(3))
        for jid, expires, consumed in (
            (keep, datetime.now(UTC) + timedelta(days=1), None),
            (expired, datetime.now(UTC) - timedelta(seconds=1), None),
            (used, None, datetime.now(UTC)),
        ):
            conn.execute(
                "INSERT INTO retained_input (context_id, judgement_id, route, payload,"
                " principal_id, key_id, expires_at, consumed_at)"
                " VALUES (%s, %s, 'facts', '{}', %s, %s, %s, %s)",
                (cid, jid, new_id(), new_id(), expires, consumed),
            )
    _purge(db_url)
    with psycopg.connect(db_url) as conn:
        left = {r[0] for r in conn.execute("SELECT judgement_id FROM retained_input")}
    assert left == {keep}


def test_a_worker_runs_the_deferred_purge_job(db_url: str, tmp_path) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        cid = _context(conn, 7)
        _judgement(conn, cid, 8)
        young = _judgement(conn, cid, 1)

    async def go() -> None:
        services = build_services(
            Settings(database_url=db_url, data_dir=tmp_path), db=Database(db_url)
        )
        await services.open()
        try:
            task = services.jobs.tasks["memwarden:retention_purge"]
            await task.defer_async(timestamp=0)
            await services.jobs.run_worker_async(wait=False, install_signal_handlers=False)
        finally:
            await services.close()

    asyncio.run(go())
    with psycopg.connect(db_url) as conn:
        assert _ids(conn, cid) == {young}
        status = conn.execute(
            "SELECT status FROM procrastinate_jobs WHERE task_name = 'memwarden:retention_purge'"
        ).fetchone()
    assert status is not None and status[0] == "succeeded"


def test_the_purge_is_registered_as_a_periodic_job(tmp_path) -> None:
    url = "postgresql:///unused"
    settings = Settings(database_url=url, data_dir=tmp_path)
    build_services(settings, db=Database(url))  # building twice must not rename tasks
    app = build_services(settings, db=Database(url)).jobs
    periodic = {p.task.name for p in app.periodic_registry.periodic_tasks.values()}
    assert "memwarden:retention_purge" in periodic
