"""Task definitions. Each task is thin: it calls one use case with the worker's Services.

Tasks are registered per App (not on a shared module-level Blueprint), because
procrastinate renames a blueprint's Task objects in place when they are added.
"""

from __future__ import annotations

from procrastinate import App

from memwarden.jobs import runtime
from memwarden.jobs.retention import purge_expired

NAMESPACE = "memwarden"


async def retention_purge(timestamp: int) -> dict[str, int]:
    report = await purge_expired(runtime.services().db)
    return {
        "contexts": report.contexts,
        "judgements": report.judgements,
        "retained_inputs": report.retained_inputs,
    }


def register(app: App) -> None:
    purge = app.task(
        name=f"{NAMESPACE}:retention_purge", queue="maintenance", queueing_lock="retention_purge"
    )(retention_purge)
    app.periodic(cron="17 * * * *", periodic_id="retention_purge")(purge)
