"""The review log: filters, an entry's detail, override with replay, holds, dry runs."""

from __future__ import annotations

import uuid
from typing import get_args

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from memwarden.domain.grants import Caller
from memwarden.errors import InvalidInput
from memwarden.gatekeeper import Source
from memwarden.judge import dry_run as dry_runs
from memwarden.judge import holds, override, review
from memwarden.judge.contract import DryRunBody, OverrideBody
from memwarden.web.base import (
    PageRoute,
    checked_form,
    render,
    services,
    signed_in,
    text_field,
    validated,
)
from memwarden.web.session import Session

router = APIRouter(prefix="/ui/c/{context_id}", route_class=PageRoute, include_in_schema=False)
Who = tuple[Caller, Session]
SOURCES: tuple[str, ...] = get_args(Source)


def _held(value: str | None) -> bool | None:
    return {"yes": True, "no": False}.get(value or "")


@router.get("/judgements")
async def judgement_list(
    request: Request,
    context_id: uuid.UUID,
    verdict: str | None = None,
    stage: str | None = None,
    source: str | None = None,
    held: str | None = None,
    cursor: str | None = None,
    who: Who = Depends(signed_in),
) -> Response:
    filters = {"verdict": verdict or None, "stage": stage or None, "held": held or None}
    page = await review.list_entries(
        services(request),
        who[0],
        context_id,
        verdict=filters["verdict"],
        stage=filters["stage"],
        held=_held(held),
        source=source or None,
        limit=25,
        cursor=cursor or None,
    )
    entries = page["judgements"]
    return render(
        request,
        "judgements.html",
        context_id=context_id,
        entries=entries,
        next_cursor=page["next_cursor"],
        filters={**filters, "source": source or None},
        sources=SOURCES,
    )


@router.get("/judgements/{judgement_id}")
async def judgement_detail(
    request: Request, context_id: uuid.UUID, judgement_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    entry = await review.get_entry(services(request), who[0], context_id, judgement_id)
    return render(request, "judgement.html", context_id=context_id, entry=entry, outcome=None)


@router.post("/judgements/{judgement_id}/override")
async def judgement_override(
    request: Request, context_id: uuid.UUID, judgement_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    form = await checked_form(request)
    body = validated(
        OverrideBody,
        {"verdict": text_field(form, "verdict"), "replay": text_field(form, "replay") == "on"},
    )
    result = await override.override(
        services(request),
        who[0],
        context_id,
        judgement_id,
        verdict=body.verdict,
        replay=body.replay,
    )
    outcome = {"kind": "override", "replay": result["replay"], "ingest": result["ingest"]}
    return render(
        request, "judgement.html", context_id=context_id, entry=result["judgement"], outcome=outcome
    )


@router.post("/judgements/{judgement_id}/{decision}")
async def judgement_hold(
    request: Request,
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    decision: str,
    who: Who = Depends(signed_in),
) -> Response:
    await checked_form(request)
    if decision not in ("approve", "reject"):
        raise InvalidInput("a held item is approved or rejected", field="decision")
    result = await holds.decide(
        services(request), who[0], context_id, judgement_id, approve=decision == "approve"
    )
    outcome = {"kind": decision, "changed": result["changed"]}
    return render(
        request, "judgement.html", context_id=context_id, entry=result["judgement"], outcome=outcome
    )


@router.get("/dry-run")
async def dry_run_form(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    # The grant check of the use case, without running a model: an empty id list is refused
    # after the grant, so a key without grant:manage sees the 403 page here too.
    await review.list_entries(services(request), who[0], context_id, limit=1)
    return render(request, "dry_run.html", context_id=context_id, result=None, form={})


@router.post("/dry-run")
async def dry_run(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    form = await checked_form(request)
    body = validated(
        DryRunBody,
        {
            "addendum": text_field(form, "addendum") or "",
            "verdict": text_field(form, "verdict") or None,
            "limit": text_field(form, "limit") or "20",
            "compare_current": text_field(form, "compare_current") == "on",
        },
    )
    result = await dry_runs.dry_run(
        services(request),
        who[0],
        context_id,
        addendum=body.addendum,
        verdict=body.verdict,
        limit=body.limit,
        compare_current=body.compare_current,
    )
    rows = sorted(result["matrix"])
    cols = sorted({c for row in result["matrix"].values() for c in row})
    return render(
        request,
        "dry_run.html",
        context_id=context_id,
        result=result,
        rows=rows,
        cols=cols,
        form={
            "addendum": body.addendum,
            "verdict": body.verdict,
            "compare": body.compare_current,
            "limit": body.limit,
        },
    )
