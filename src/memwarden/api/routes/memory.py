"""The memory contract over HTTP: commands, reads, search, vectors and review decisions.

Tenant, subject and credential come from the bearer key; each route hands its validated
body to one service function.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
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

router = APIRouter(prefix="/api/v1/memory", tags=["memory"], route_class=AnswerRoute)


@router.post("/commands")
async def memory_command(
    body: CommandRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> CommandResult:
    return await commands.run_command(svc, who, body)


@router.post("/read")
async def memory_read(
    body: ReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> ReadAnswer:
    return await records.read_record(svc.db, who, body)


@router.post("/search")
async def memory_search(
    body: SearchRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> SearchAnswer:
    return await records.search(svc.db, who, body)


@router.post("/embeddings")
async def memory_embedding(
    body: EmbeddingRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> EmbeddingAnswer:
    return await records.attach_embedding(svc.db, who, body)


@router.post("/reviews")
async def review_decide(
    body: ReviewRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> ReceiptAnswer:
    return await decisions.decide(svc.db, who, body)


@router.post("/reviews/state")
async def review_state(
    body: ReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> ReviewStateAnswer:
    return await history.review_state(svc.db, who, body)


@router.post("/reviews/read")
async def review_read(
    body: ReceiptReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> ReceiptAnswer:
    return await history.read_receipt(svc.db, who, body)


@router.post("/reviews/eligibility")
async def review_eligibility(
    body: ReadRequest, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> EligibilityAnswer:
    return await diagnostic.eligibility(svc.db, who, body)
