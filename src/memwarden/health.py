"""Health of the parts a request depends on: database, workers, model providers."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from typing import Any

from memwarden.services import Services
from memwarden.settings import inactive_settings
from memwarden.store import health as store_health

HEARTBEAT_WINDOW_S = 60


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
    try:
        stages = await svc.models.health(timeout_s=3.0)
    except Exception as exc:
        return {"status": "error", "error": type(exc).__name__}
    failing = [s.stage for s in stages if s.configured and s.ok is False]
    return {
        "status": "error" if failing else "ok",
        "stages": {s.stage: s.as_dict() for s in stages},
    }


async def check_health(svc: Services) -> dict[str, Any]:
    database, workers, models = await asyncio.gather(_database(svc), _workers(svc), _models(svc))
    if database["status"] != "ok":
        overall = "down"
    elif workers["status"] != "ok" or models["status"] == "error":
        overall = "degraded"
    else:
        overall = "ok"
    return {
        "status": overall,
        "database": database,
        "worker": workers,
        "models": models,
        # Settings that are set but do nothing yet: the operator should know, the service
        # is not less healthy for it.
        "inactive_settings": inactive_settings(svc.settings),
    }
