"""Background pass routes: run one by hand (202 with its run id), read a run's status."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.passes import runs
from memwarden.passes.responses import PassRun, PassStarted
from memwarden.services import Services

router = APIRouter(prefix="/api/v1/{context_id}/passes", tags=["passes"], route_class=AnswerRoute)


@router.post("/{stage}/run", status_code=202)
async def run_pass(
    context_id: uuid.UUID,
    stage: str,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> PassStarted:
    return await runs.request_run(svc, who, context_id, stage)


@router.get("/runs/{run_id}")
async def get_run(
    context_id: uuid.UUID,
    run_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> PassRun:
    return await runs.get_run(svc, who, context_id, run_id)
