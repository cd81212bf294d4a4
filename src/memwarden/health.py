"""Health of the parts a request depends on: database, workers, model providers."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from typing import Any, Literal

from pydantic import Field

from memwarden.answers import Answer
from memwarden.services import Services
from memwarden.settings import inactive_settings
from memwarden.store import health as store_health

HEARTBEAT_WINDOW_S = 60


# The body of GET /health (`check_health` returns it): the public view has each part's
# `status`; the operator's (the admin token) has the fields marked "operator" as well. A
# field the view leaves out is absent from the JSON, not null (answers are exclude_unset).


class DatabaseHealth(Answer):
    status: Literal["ok", "down"]
    version: str | None = Field(
        default=None, description="Operator, when up: the server's version."
    )
    pgvector: str | None = Field(default=None, description="Operator: null when not installed.")
    schema_version: int | None = Field(default=None, description="Operator: the last migration.")
    embedded: bool | None = Field(default=None, description="Operator: the embedded PostgreSQL.")
    error: str | None = Field(default=None, description="Operator, when down: the error's type.")


class WorkerHealth(Answer):
    status: Literal["ok", "none"] = Field(description="`none`: no worker beat in 60 s.")
    in_process: bool | None = Field(default=None, description="Operator.")
    active_workers: int | None = Field(default=None, description="Operator.")


class StageHealthReport(Answer):
    stage: str
    provider: str
    configured: bool
    ok: bool | None = Field(description="Null when the stage was not checked.")
    detail: str


class ModelsHealth(Answer):
    status: Literal["ok", "error"]
    stages: dict[str, StageHealthReport] | None = Field(default=None, description="Operator.")
    error: str | None = Field(default=None, description="Operator, when the check itself failed.")


class InactiveSetting(Answer):
    setting: str = Field(description="The `MEMWARDEN_*` variable.")
    reason: str


class HealthReport(Answer):
    """200 when `status` is `ok`, 503 when it is `degraded` or `down`."""

    status: Literal["ok", "degraded", "down"]
    database: DatabaseHealth
    worker: WorkerHealth
    models: ModelsHealth
    version: str | None = Field(default=None, description="Operator: memwarden's version.")
    inactive_settings: list[InactiveSetting] | None = Field(
        default=None, description="Operator: settings given a value that have no effect yet."
    )


async def _database(svc: Services) -> dict[str, Any]:
    try:
        async with svc.db.connection() as conn:
            info = await store_health.database_info(conn)
        return {"status": "ok", **asdict(info), "embedded": svc.db.server is not None}
    except Exception as exc:
        return {"status": "down", "error": type(exc).__name__}


async def _workers(svc: Services) -> dict[str, Any]:
    task = svc.worker
    in_process = bool(task is not None and not task.done())
    try:
        async with svc.db.connection() as conn:
            active = await store_health.count_live_workers(conn, HEARTBEAT_WINDOW_S)
    except Exception:
        active = 0
    status = "ok" if active > 0 or in_process else "none"
    return {"status": status, "in_process": in_process, "active_workers": active}


async def _models(svc: Services) -> dict[str, Any]:
    """The providers' answer, cached (`svc.provider_check`, 30 s): /health is public, so
    no number of calls to it may turn into calls to the model provider."""
    cached = svc.provider_check.get("models")
    if cached is not None:
        return cached
    async with svc.provider_check_lock:  # one check in flight; the rest take its answer
        cached = svc.provider_check.get("models")
        if cached is None:
            cached = await _check_models(svc)
            svc.provider_check.put("models", cached)
        return cached


async def _check_models(svc: Services) -> dict[str, Any]:
    try:
        stages = await svc.models.health(timeout_s=3.0)
    except Exception as exc:
        return {"status": "error", "error": type(exc).__name__}
    failing = [s.stage for s in stages if s.configured and s.ok is False]
    return {
        "status": "error" if failing else "ok",
        "stages": {s.stage: s.as_dict() for s in stages},
    }


def public_view(report: HealthReport) -> HealthReport:
    """What anyone may see: the overall status and each component's state, no versions,
    hosts, settings or counts (those are for the operator's token)."""
    return HealthReport(
        status=report.status,
        database=DatabaseHealth(status=report.database.status),
        worker=WorkerHealth(status=report.worker.status),
        models=ModelsHealth(status=report.models.status),
    )


async def check_health(svc: Services) -> HealthReport:
    """The operator's report (`public_view` narrows it)."""
    database, workers, models = await asyncio.gather(_database(svc), _workers(svc), _models(svc))
    if database["status"] != "ok":
        overall = "down"
    elif workers["status"] != "ok" or models["status"] == "error":
        overall = "degraded"
    else:
        overall = "ok"
    return HealthReport.model_validate(
        {
            "status": overall,
            "database": database,
            "worker": workers,
            "models": models,
            # Settings that are set but do nothing yet: the operator should know, the
            # service is not less healthy for it.
            "inactive_settings": inactive_settings(svc.settings),
        }
    )
