"""Memories: hybrid search (the same recall as /query) and a record's review page."""

from __future__ import annotations

import uuid
from typing import Any, get_args

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ValidationError

from memwarden.domain.grants import Caller
from memwarden.errors import InvalidInput, NotFound
from memwarden.retrieval.contract import Category, Kind, QueryBody
from memwarden.retrieval.query import run_query
from memwarden.review import decisions, diagnostic, history, records
from memwarden.review.contract import ReadRequest, ReceiptReadRequest, ReviewRequest
from memwarden.review.trail import record_trail
from memwarden.web.base import (
    PageRoute,
    checked_form,
    new_token,
    redirect,
    render,
    services,
    signed_in,
    text_field,
    validated,
)
from memwarden.web.session import Session

router = APIRouter(prefix="/ui/c/{context_id}", route_class=PageRoute, include_in_schema=False)
Who = tuple[Caller, Session]
KINDS: tuple[str, ...] = get_args(Kind)
CATEGORIES: tuple[str, ...] = get_args(Category)


def _search_page(
    request: Request,
    context_id: uuid.UUID,
    result: dict[str, Any] | None = None,
    filters: dict[str, Any] | None = None,
) -> Response:
    return render(
        request,
        "memories.html",
        context_id=context_id,
        result=result,
        filters=filters or {},
        kinds=KINDS,
        categories=CATEGORIES,
    )


@router.get("/memories")
async def memory_search_form(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    return _search_page(request, context_id)


@router.post("/memories")
async def memory_search(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> Response:
    """A POST, so what was searched for stays out of the address bar and history."""
    form = await checked_form(request)
    filters = {
        name: text_field(form, name) or None
        for name in ("q", "kind", "category", "scope", "superseded")
    }
    body = validated(
        QueryBody,
        {
            "query": filters["q"] or "",
            "limit": 25,
            "scope": [filters["scope"]] if filters["scope"] else None,
            "categories": [filters["category"]] if filters["category"] else None,
            "kinds": [filters["kind"]] if filters["kind"] else None,
            "include_superseded": filters["superseded"] == "on",
        },
    )
    result = await run_query(services(request), who[0], context_id, body.to_input())
    return _search_page(request, context_id, result, filters)


def _read(record_id: uuid.UUID, visibility: str) -> ReadRequest:
    try:
        return ReadRequest.model_validate(
            {
                "contract_version": 1,
                "scope": {"visibility": visibility},
                "record_id": str(record_id),
            }
        )
    except ValidationError:
        raise InvalidInput("visibility is shared or private", field="visibility") from None


async def _record_page(
    request: Request,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    visibility: str,
    caller: Caller,
    outcome: dict[str, Any] | None = None,
    status: int = 200,
) -> Response:
    db = services(request).db
    read = _read(record_id, visibility)
    state = await history.review_state(db, caller, read)
    eligibility = await diagnostic.eligibility(db, caller, read)
    trail = await record_trail(db, caller, read)
    record: dict[str, Any] | None = None
    try:
        record = (await records.read_record(db, caller, read))["record"]
    except NotFound:
        record = None  # not served (rejected, deleted, expired or blocked): metadata only
    receipt = None
    if state["state"]["review"]:
        receipt_req = ReceiptReadRequest.model_validate(
            {
                "contract_version": 1,
                "scope": {"visibility": visibility},
                "record_id": str(record_id),
                "revision": state["state"]["revision"],
            }
        )
        try:
            receipt = (await history.read_receipt(db, caller, receipt_req)).get("receipt")
        except NotFound:
            receipt = None
    return render(
        request,
        "record.html",
        status=status,
        context_id=context_id,
        record_id=record_id,
        visibility=visibility,
        record=record,
        state=state["state"],
        eligibility=eligibility,
        trail=trail,
        receipt=receipt,
        outcome=outcome,
    )


@router.get("/memories/{record_id}")
async def memory_record(
    request: Request,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    visibility: str = "shared",
    who: Who = Depends(signed_in),
) -> Response:
    return await _record_page(request, context_id, record_id, visibility, who[0])


@router.post("/memories/{record_id}/review")
async def memory_review(
    request: Request,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    who: Who = Depends(signed_in),
) -> Response:
    form = await checked_form(request)
    visibility = text_field(form, "visibility") or "shared"
    revision = text_field(form, "expected_revision") or ""
    body = {
        "scope": {"visibility": visibility},
        "command": {
            "contract_version": 1,
            "idempotency_key": text_field(form, "idempotency_key") or new_token(),
            "record_id": str(record_id),
            "expected_revision": int(revision) if revision.isdigit() else revision,
            "disposition": text_field(form, "disposition"),
            "evidence_ref": text_field(form, "evidence_ref") or "",
        },
    }
    req = validated(ReviewRequest, body)
    result = await decisions.decide(services(request).db, who[0], req)
    outcome = {"kind": "review", "result": result}
    if text_field(form, "then") == "search":
        return redirect(f"/ui/c/{context_id}/memories")
    return await _record_page(request, context_id, record_id, visibility, who[0], outcome)
