"""Pass runs: requested by hand (POST .../passes/{stage}/run), by the settle trigger or by
the schedule; executed by the `memwarden:run_pass` task; read back by id.

A run is a `pass_run` row: queued, then running, then done or failed, with its counts
(`inputs`, `written`, `dropped`, `held`) and, when it failed, an error code
(`token_budget_exhausted`, `model_provider_error`, `judge_unavailable`, ...). Units written
before a failure stay written (each in its own transaction, with its watermark), so the next
run continues where this one stopped. Every request and every finished run is an audit event
(ids and counts stay in the run row; no content).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from procrastinate.exceptions import AlreadyEnqueued

from memwarden.admin.access import require_capability
from memwarden.admin.settings_service import read_config
from memwarden.config import ContextConfig
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.errors import AppError, BudgetExhausted, Conflict, Forbidden, NotFound
from memwarden.models.base import ModelTransportError
from memwarden.passes import responses
from memwarden.passes.consolidation import run_consolidation
from memwarden.passes.contract import STAGES
from memwarden.passes.elaboration import run_elaboration
from memwarden.passes.gist import run_gist
from memwarden.passes.rollup import run_rollup
from memwarden.passes.unit import PassRun
from memwarden.services import Services
from memwarden.store import passes as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn

log = structlog.get_logger(__name__)
RUN_TASK = "memwarden:run_pass"
QUEUE = "passes"
RUNNERS: dict[str, Callable[[PassRun], Awaitable[None]]] = {
    "consolidation": run_consolidation,
    "elaboration": run_elaboration,
    "rollup": run_rollup,
    "gist": run_gist,
}


def _known(stage: str) -> str:
    if stage not in STAGES:
        raise NotFound(f"no pass named {stage!r}", code="unknown_pass")
    return stage


def _require_writer(caller: Caller, context_id: uuid.UUID) -> None:
    """memory_write over the whole Context: a pass reads and writes all of it."""
    require_capability(caller, context_id, "memory_write")
    if not caller.can_whole_context("memory_write"):
        raise Forbidden("needs memory_write over the whole Context", code="missing_grant")


async def request_run(
    services: Services, caller: Caller, context_id: uuid.UUID, stage: str
) -> responses.PassStarted:
    """A run by hand: queued now, it takes every input with new material (no idle delay)."""
    _require_writer(caller, context_id)
    _known(stage)
    async with services.db.transaction() as conn:
        config = await read_config(conn, context_id)
        if not config.passes.stage(stage).enabled:
            raise Conflict(
                f"the {stage} pass is switched off for this Context (passes.{stage}.enabled)",
                code="pass_disabled",
            )
        run_id = await create_run(conn, context_id, stage, "manual", caller.subject, caller.key_id)
    await enqueue(services, context_id, run_id)
    return responses.PassStarted(runId=str(run_id))


async def create_run(
    conn: Conn,
    context_id: uuid.UUID,
    stage: str,
    trigger: str,
    by: str,
    key_id: uuid.UUID | None = None,
) -> uuid.UUID:
    run_id = new_id()
    await store.insert_run(conn, context_id, run_id, stage, trigger, by)
    await audit(
        conn,
        context_id=context_id,
        actor_subject=by,
        key_id=key_id,
        action="pass.requested",
        target_kind="pass_run",
        target_id=run_id,
    )
    return run_id


async def enqueue(services: Services, context_id: uuid.UUID, run_id: uuid.UUID) -> None:
    deferrer = services.jobs.configure_task(RUN_TASK, queue=QUEUE, queueing_lock=f"pass:{run_id}")
    with contextlib.suppress(AlreadyEnqueued):
        await deferrer.defer_async(context_id=str(context_id), run_id=str(run_id))


def render(row: store.PassRun) -> responses.PassRun:
    return responses.PassRun(
        runId=str(row.id),
        stage=row.stage,
        trigger=row.trigger,
        status=row.status,
        counts=responses.PassCounts(
            inputs=row.inputs, written=row.written, dropped=row.dropped, held=row.held
        ),
        errorCode=row.error_code,
        createdAt=row.created_at,
        startedAt=row.started_at,
        finishedAt=row.finished_at,
    )


async def get_run(
    services: Services, caller: Caller, context_id: uuid.UUID, run_id: uuid.UUID
) -> responses.PassRun:
    _require_writer(caller, context_id)
    async with services.db.connection() as conn:
        row = await store.get_run(conn, context_id, run_id)
    if row is None:
        raise NotFound("no such pass run", code="pass_run_not_found")
    return render(row)


def provider_for(services: Services, config: ContextConfig, stage: str) -> Any:
    choice = getattr(config.models, stage)
    spec = f"{choice.provider}:{choice.model}" if choice is not None else None
    return services.models.pass_provider(stage, spec)


async def execute(services: Services, context_id: uuid.UUID, run_id: uuid.UUID) -> str:
    """The task's body: the run's status when it ends ('skipped' if it was not queued)."""
    async with services.db.transaction() as conn:
        started = await store.start_run(conn, context_id, run_id)
    if started is None:
        return "skipped"
    stage = started["stage"]
    run: PassRun | None = None
    status, code = "done", None
    try:
        async with services.db.connection() as conn:
            config = await read_config(conn, context_id)
            marks = await store.watermarks(conn, context_id, stage)
        run = PassRun(
            services,
            context_id,
            run_id,
            stage,
            config,
            manual=started["trigger"] == "manual",
            provider=provider_for(services, config, stage),
            marks=marks,
        )
        await RUNNERS[stage](run)
    except BudgetExhausted:
        status, code = "failed", "token_budget_exhausted"
    except ModelTransportError:
        status, code = "failed", "model_provider_error"
    except AppError as exc:
        status, code = "failed", exc.code
    except Exception as exc:  # recorded on the run; the job itself ends normally
        status, code = "failed", "internal_error"
        log.error("pass_failed", stage=stage, run_id=str(run_id), error=type(exc).__name__)
    counts = run.counts.as_dict() if run is not None else {}
    async with services.db.transaction() as conn:
        await store.finish_run(conn, context_id, run_id, status, counts, code)
        await audit(
            conn,
            context_id=context_id,
            actor_subject=f"pass:{stage}",
            key_id=None,
            action=f"pass.{status}",
            target_kind="pass_run",
            target_id=run_id,
        )
    log.info("pass_run", stage=stage, run_id=str(run_id), status=status, code=code, **counts)
    return status
