"""Task definitions. Each task is thin: it calls one use case with the worker's Services."""

from __future__ import annotations

from procrastinate import Blueprint

from memwarden.jobs import runtime
from memwarden.jobs.retention import purge_expired

blueprint = Blueprint()


@blueprint.periodic(cron="17 * * * *", periodic_id="retention_purge")
@blueprint.task(name="retention_purge", queue="maintenance", queueing_lock="retention_purge")
async def retention_purge(timestamp: int) -> dict[str, int]:
    report = await purge_expired(runtime.services().db)
    return {
        "contexts": report.contexts,
        "judgements": report.judgements,
        "retained_inputs": report.retained_inputs,
    }
