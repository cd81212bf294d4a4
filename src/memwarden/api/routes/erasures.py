"""Erasure routes: request one (202 with its id), read where it stands."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.erasure import service
from memwarden.erasure.contract import ErasureBody
from memwarden.erasure.responses import Erasure, ErasureStarted
from memwarden.services import Services

router = APIRouter(
    prefix="/api/v1/{context_id}/erasures", tags=["erasure"], route_class=AnswerRoute
)


@router.post("", status_code=202)
async def request_erasure(
    context_id: uuid.UUID,
    body: ErasureBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ErasureStarted:
    """Erase one target for good (exactly one of recordIds, subject, speaker, scopePrefix,
    sessionId, documentId): a job removes its content everywhere and leaves tombstones."""
    return await service.request_erasure(svc, who, context_id, body)


@router.get("/{erasure_id}")
async def get_erasure(
    context_id: uuid.UUID,
    erasure_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> Erasure:
    return await service.get_erasure(svc, who, context_id, erasure_id)
