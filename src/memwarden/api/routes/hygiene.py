"""Memory hygiene: scans as jobs, runs, the review queue and its corrections."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, Query

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.hygiene import queue, runs
from memwarden.hygiene.contract import ChallengeBody, QueueStatus, ResolveBody, ScanBody
from memwarden.hygiene.responses import (
    HygieneRun,
    MemoryRestored,
    QueueChallenged,
    QueuePage,
    QueueResolved,
    ScanStarted,
)
from memwarden.services import Services

router = APIRouter(tags=["hygiene"], route_class=AnswerRoute)
BASE = "/api/v1/{context_id}/hygiene"


@router.post(BASE + "/scan", status_code=202)
async def scan(
    context_id: uuid.UUID,
    body: ScanBody | None = None,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ScanStarted:
    """Start a full hygiene cycle as a job (stale sweep first; `rejudge` re-judges pending
    pairs); 409 while another cycle of the Context is queued or running."""
    rejudge = body.rejudge if body is not None else False
    return await runs.start_scan(svc, who, context_id, rejudge=rejudge)


@router.get(BASE + "/runs/{run_id}")
async def get_run(
    context_id: uuid.UUID,
    run_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> HygieneRun:
    return await runs.get_run(svc, who, context_id, run_id)


@router.get(BASE + "/queue")
async def list_queue(
    context_id: uuid.UUID,
    status: QueueStatus | None = "pending",
    limit: int = Query(20, ge=1, le=100),
    cursor: str | None = None,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> QueuePage:
    return await queue.list_queue(svc, who, context_id, status=status, limit=limit, cursor=cursor)


@router.post(BASE + "/queue/{item_id}/resolve")
async def resolve(
    context_id: uuid.UUID,
    item_id: uuid.UUID,
    body: ResolveBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> QueueResolved:
    return await queue.resolve(svc, who, context_id, item_id, body.resolution)


@router.post(BASE + "/memories/{record_id}/restore")
async def restore(
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> MemoryRestored:
    return await queue.restore(svc, who, context_id, record_id)


@router.post(BASE + "/memories/{record_id}/challenge")
async def challenge(
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    body: ChallengeBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> QueueChallenged:
    return await queue.challenge(svc, who, context_id, record_id, body.reason)
