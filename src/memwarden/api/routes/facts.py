"""POST /facts, /facts/batch and /turns/{id}/reprocess: parse, authenticate, hand to the
use case."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.pipeline.batch import write_batch
from memwarden.pipeline.contract import BatchBody, FactsBody
from memwarden.pipeline.ingest import write_facts
from memwarden.pipeline.reprocess import reprocess_turn
from memwarden.pipeline.responses import BatchResponse, FactsResponse, ReprocessResponse
from memwarden.services import Services

router = APIRouter(tags=["facts"], route_class=AnswerRoute)


@router.post(
    "/api/v1/{context_id}/facts",
    status_code=201,
)
async def facts(
    context_id: uuid.UUID,
    body: FactsBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> FactsResponse:
    return await write_facts(svc, who, context_id, body.to_input())


@router.post(
    "/api/v1/{context_id}/facts/batch",
)
async def facts_batch(
    context_id: uuid.UUID,
    body: BatchBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> BatchResponse:
    return await write_batch(svc, who, context_id, [i.to_input() for i in body.items])


@router.post(
    "/api/v1/{context_id}/turns/{turn_id}/reprocess",
)
async def reprocess(
    context_id: uuid.UUID,
    turn_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ReprocessResponse:
    return await reprocess_turn(svc, who, context_id, turn_id)
