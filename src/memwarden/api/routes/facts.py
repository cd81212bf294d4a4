"""POST /facts and /facts/batch: parse, authenticate, hand to the facts use case."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.domain.grants import Caller
from memwarden.pipeline.batch import write_batch
from memwarden.pipeline.contract import BatchBody, FactsBody
from memwarden.pipeline.ingest import write_facts
from memwarden.services import Services

router = APIRouter(tags=["facts"])


@router.post("/api/v1/{context_id}/facts", status_code=201)
async def facts(
    context_id: uuid.UUID,
    body: FactsBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await write_facts(svc, who, context_id, body.to_input())


@router.post("/api/v1/{context_id}/facts/batch")
async def facts_batch(
    context_id: uuid.UUID,
    body: BatchBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await write_batch(svc, who, context_id, [i.to_input() for i in body.items])
