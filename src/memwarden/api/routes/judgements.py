"""The review log: list, show, override (with replay), approve/reject holds, dry runs."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, Query

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.judge import dry_run as dry_runs
from memwarden.judge import holds, override, review
from memwarden.judge.contract import DryRunBody, OverrideBody
from memwarden.judge.responses import (
    DryRunResult,
    HoldDecision,
    JudgementList,
    OverrideResult,
)
from memwarden.judge.responses import Judgement as JudgementEntry
from memwarden.services import Services

router = APIRouter(tags=["judgements"], route_class=AnswerRoute)
BASE = "/api/v1/{context_id}/judgements"


@router.get(BASE)
async def list_judgements(
    context_id: uuid.UUID,
    verdict: str | None = None,
    stage: str | None = None,
    held: bool | None = None,
    source: str | None = Query(None, description="the writer's source: facts, chat, document ..."),
    limit: int = Query(20, ge=1, le=100),
    cursor: str | None = None,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> JudgementList:
    return await review.list_entries(
        svc,
        who,
        context_id,
        verdict=verdict,
        stage=stage,
        held=held,
        source=source,
        limit=limit,
        cursor=cursor,
    )


@router.post(BASE + "/dry-run")
async def dry_run(
    context_id: uuid.UUID,
    body: DryRunBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DryRunResult:
    return await dry_runs.dry_run(
        svc,
        who,
        context_id,
        addendum=body.addendum,
        verdict=body.verdict,
        judgement_ids=body.judgement_ids,
        limit=body.limit,
        compare_current=body.compare_current,
    )


@router.get(BASE + "/{judgement_id}")
async def show_judgement(
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> JudgementEntry:
    return await review.get_entry(svc, who, context_id, judgement_id)


@router.post(BASE + "/{judgement_id}/override")
async def override_judgement(
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    body: OverrideBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> OverrideResult:
    return await override.override(
        svc, who, context_id, judgement_id, verdict=body.verdict, replay=body.replay
    )


@router.post(BASE + "/{judgement_id}/approve")
async def approve_judgement(
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> HoldDecision:
    return await holds.decide(svc, who, context_id, judgement_id, approve=True)


@router.post(BASE + "/{judgement_id}/reject")
async def reject_judgement(
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> HoldDecision:
    return await holds.decide(svc, who, context_id, judgement_id, approve=False)
