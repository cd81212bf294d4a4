"""The review log: filters, an entry's detail, override with replay, holds, dry runs."""

from __future__ import annotations

import uuid
from typing import get_args

from fastapi.responses import Response

from memwarden.answers import wire
from memwarden.errors import InvalidInput
from memwarden.gatekeeper import Source
from memwarden.judge import dry_run as dry_runs
from memwarden.judge import holds, override, review
from memwarden.judge.contract import DryRunBody, OverrideBody
from memwarden.web.base import View, checked_form, context_router, text_field, validated

router = context_router()
SOURCES: tuple[str, ...] = get_args(Source)


def _held(value: str | None) -> bool | None:
    return {"yes": True, "no": False}.get(value or "")


@router.get("/judgements")
async def judgement_list(
    view: View,
    verdict: str | None = None,
    stage: str | None = None,
    source: str | None = None,
    held: str | None = None,
    cursor: str | None = None,
) -> Response:
    filters = {"verdict": verdict or None, "stage": stage or None, "held": held or None}
    page = await review.list_entries(
        view.services,
        view.caller,
        view.context_id,
        verdict=filters["verdict"],
        stage=filters["stage"],
        held=_held(held),
        source=source or None,
        limit=25,
        cursor=cursor or None,
    )
    return view.render(
        "judgements.html",
        entries=page.judgements,
        next_cursor=page.next_cursor,
        filters={**filters, "source": source or None},
        sources=SOURCES,
    )


@router.get("/judgements/{judgement_id}")
async def judgement_detail(view: View, judgement_id: uuid.UUID) -> Response:
    entry = await review.get_entry(view.services, view.caller, view.context_id, judgement_id)
    return view.render("judgement.html", entry=entry, outcome=None)


@router.post("/judgements/{judgement_id}/override")
async def judgement_override(view: View, judgement_id: uuid.UUID) -> Response:
    form = await checked_form(view.request)
    body = validated(
        OverrideBody,
        {"verdict": text_field(form, "verdict"), "replay": text_field(form, "replay") == "on"},
    )
    result = await override.override(
        view.services,
        view.caller,
        view.context_id,
        judgement_id,
        verdict=body.verdict,
        replay=body.replay,
    )
    ingest = wire(result.ingest) if result.ingest is not None else None
    outcome = {"kind": "override", "replay": result.replay, "ingest": ingest}
    return view.render("judgement.html", entry=result.judgement, outcome=outcome)


@router.post("/judgements/{judgement_id}/{decision}")
async def judgement_hold(view: View, judgement_id: uuid.UUID, decision: str) -> Response:
    await checked_form(view.request)
    if decision not in ("approve", "reject"):
        raise InvalidInput("a held item is approved or rejected", field="decision")
    result = await holds.decide(
        view.services, view.caller, view.context_id, judgement_id, approve=decision == "approve"
    )
    outcome = {"kind": decision, "changed": result.changed}
    return view.render("judgement.html", entry=result.judgement, outcome=outcome)


@router.get("/dry-run")
async def dry_run_form(view: View) -> Response:
    # The grant check of the use case, without running a model: an empty id list is refused
    # after the grant, so a key without grant:manage sees the 403 page here too.
    await review.list_entries(view.services, view.caller, view.context_id, limit=1)
    return view.render("dry_run.html", result=None, form={})


@router.post("/dry-run")
async def dry_run(view: View) -> Response:
    form = await checked_form(view.request)
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
        view.services,
        view.caller,
        view.context_id,
        addendum=body.addendum,
        verdict=body.verdict,
        limit=body.limit,
        compare_current=body.compare_current,
    )
    rows = sorted(result.matrix)
    cols = sorted({c for row in result.matrix.values() for c in row})
    return view.render(
        "dry_run.html",
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
