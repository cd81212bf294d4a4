"""The memory contract over HTTP: commands, reads, search, vectors and review decisions.

Tenant, subject and credential come from the bearer key; each route hands its validated
body to one service function.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.domain.grants import Caller
from memwarden.review import commands, decisions, diagnostic, history, records
from memwarden.review.contract import (
    CommandRequest,
    EmbeddingRequest,
    ReadRequest,
    ReceiptReadRequest,
    ReviewRequest,
    SearchRequest,
)
from memwarden.review.responses import (
    CommandResult,
    EligibilityAnswer,
    EmbeddingAnswer,
    ReadAnswer,
    ReceiptAnswer,
    ReviewStateAnswer,
    SearchAnswer,
)
from memwarden.services import Services

router = APIRouter(prefix="/api/v1/memory", tags=["memory"])


@router.post("/commands", responses={200: {"model": CommandResult}})
async def memory_command(
    body: CommandRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await commands.run_command(svc.db, who, body)


@router.post("/read", responses={200: {"model": ReadAnswer}})
async def memory_read(
    body: ReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await records.read_record(svc.db, who, body)


@router.post("/search", responses={200: {"model": SearchAnswer}})
async def memory_search(
    body: SearchRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await records.search(svc.db, who, body)


@router.post("/embeddings", responses={200: {"model": EmbeddingAnswer}})
async def memory_embedding(
    body: EmbeddingRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await records.attach_embedding(svc.db, who, body)


@router.post("/reviews", responses={200: {"model": ReceiptAnswer}})
async def review_decide(
    body: ReviewRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await decisions.decide(svc.db, who, body)


@router.post("/reviews/state", responses={200: {"model": ReviewStateAnswer}})
async def review_state(
    body: ReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await history.review_state(svc.db, who, body)


@router.post("/reviews/read", responses={200: {"model": ReceiptAnswer}})
async def review_read(
    body: ReceiptReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await history.read_receipt(svc.db, who, body)


@router.post("/reviews/eligibility", responses={200: {"model": EligibilityAnswer}})
async def review_eligibility(
    body: ReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> dict[str, Any]:
    return await diagnostic.eligibility(svc.db, who, body)
