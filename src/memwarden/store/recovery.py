"""What recovery reads and writes (queries/recovery.sql): workers' liveness (a session
advisory lock beside procrastinate's heartbeat), the jobs in `doing` with how their worker
stands, and the hygiene runs a dead worker left open."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg.rows import dict_row

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all

LOCK_CLASS = 7_406_118
"""The advisory-lock class of worker sessions (the two-key form; the migrations' lock uses
the one-key form, so the two never meet)."""

Liveness = Literal["live", "suspect", "dead"]


@dataclass(frozen=True)
class DoingJob:
    id: int
    task_name: str
    args: dict[str, Any]
    attempts: int
    worker_id: int | None
    heartbeat_age_s: float | None
    liveness: Liveness


@dataclass(frozen=True)
class OpenRun:
    context_id: uuid.UUID
    id: uuid.UUID
    status: str


class WorkerSession:
    """The connection a worker keeps for its life, holding its lock; procrastinate's
    heartbeat is sent on it too, so a lost session is found (and the lock taken again) at
    the next beat."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.conn: Conn | None = None

    async def _connect(self) -> Conn:
        conn: Conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, row_factory=dict_row, application_name="memwarden-worker"
        )
        return conn

    async def register(self) -> int:
        """A new procrastinate worker row, its lock taken in the same statement."""
        self.conn = await self._connect()
        try:
            cur = await self.conn.execute(q("worker_register_locked"), {"ns": LOCK_CLASS})
            row = await cur.fetchone()
        except BaseException:
            await self.close()
            raise
        assert row is not None
        return int(row["worker_id"])

    async def heartbeat(self, worker_id: int) -> None:
        """Beat on the locked session; a session found lost is replaced and locked again."""
        params = {"worker_id": worker_id, "ns": LOCK_CLASS}
        if self.conn is not None and not self.conn.closed:
            try:
                await self.conn.execute(q("worker_heartbeat"), params)
                return
            except psycopg.OperationalError:
                await self.close()
        self.conn = await self._connect()
        await self.conn.execute(q("worker_relock"), params)
        await self.conn.execute(q("worker_heartbeat"), params)

    async def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            await conn.close()


async def doing_jobs(conn: Conn, *, stale_s: float, grace_s: float) -> list[DoingJob]:
    params = {"ns": LOCK_CLASS, "stale_s": stale_s, "grace_s": grace_s}
    return await fetch_all(conn, "worker_doing_jobs", DoingJob, params)


async def waiting_run_jobs(conn: Conn, task: str, run_ids: Sequence[uuid.UUID]) -> set[str]:
    """The run ids (as text) among `run_ids` whose `task` job is waiting to start."""
    params = {"task": task, "run_ids": [str(r) for r in run_ids]}
    cur = await conn.execute(q("worker_waiting_run_jobs"), params)
    return {row["run_id"] for row in await cur.fetchall()}


async def open_full_runs(conn: Conn, queued_s: float) -> list[OpenRun]:
    return await fetch_all(conn, "hygiene_open_full_runs", OpenRun, {"queued_s": queued_s})


async def interrupt_hygiene_run(conn: Conn, context_id: uuid.UUID, run_id: uuid.UUID) -> bool:
    params = {"context_id": context_id, "id": run_id}
    cur = await conn.execute(q("hygiene_interrupt_run"), params)
    return await cur.fetchone() is not None


async def interrupt_write_runs(
    conn: Conn, context_id: uuid.UUID, subjects: Sequence[uuid.UUID]
) -> int:
    params = {"context_id": context_id, "subjects": list(subjects)}
    cur = await conn.execute(q("hygiene_interrupt_write_runs"), params)
    return len(await cur.fetchall())


async def retry_dead_job(conn: Conn, job: DoingJob, hold_s: float) -> bool:
    """True when this call moved the job back to `todo`, held until `release_job`."""
    params = {"id": job.id, "worker_id": job.worker_id, "hold_s": hold_s}
    cur = await conn.execute(q("worker_retry_dead_job"), params)
    return await cur.fetchone() is not None


async def release_job(conn: Conn, job_id: int) -> None:
    await conn.execute(q("worker_release_job"), {"id": job_id})


async def fail_dead_job(conn: Conn, job: DoingJob) -> bool:
    cur = await conn.execute(q("worker_fail_dead_job"), {"id": job.id, "worker_id": job.worker_id})
    return await cur.fetchone() is not None
