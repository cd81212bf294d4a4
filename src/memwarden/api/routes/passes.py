"""Background pass routes: run one by hand (202 with its run id), read a run's status."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from memwarden.api.deps import caller, services
from memwarden.domain.grants import Caller
from memwarden.passes import runs
from memwarden.passes.responses import PassRun, PassStarted
from memwarden.services import Services

router = APIRouter(prefix="/api/v1/{context_id}/passes", tags=["passes"])


@router.post("/{stage}/run", status_code=202, responses={202: {"model": PassStarted}})
async def run_pass(
    context_id: uuid.UUID,
    stage: str,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> JSONResponse:
    body = await runs.request_run(svc, who, context_id, stage)
    return JSONResponse(body, status_code=202)


@router.get("/runs/{run_id}", responses={200: {"model": PassRun}})
async def get_run(
    context_id: uuid.UUID,
    run_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await runs.get_run(svc, who, context_id, run_id)
