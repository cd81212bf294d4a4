"""Memories: hybrid search (the same recall as /query) and a record's review page, with its
history as a timeline (`review.timeline`, as GET .../memories/{id}/history)."""

from __future__ import annotations

import uuid
from typing import Any, get_args

from fastapi.responses import Response
from pydantic import ValidationError

from memwarden.errors import AppError, InvalidInput, NotFound
from memwarden.retrieval.contract import Category, Kind, QueryBody
from memwarden.retrieval.query import run_query
from memwarden.retrieval.responses import QueryResponse
from memwarden.review import decisions, diagnostic, history, records, timeline
from memwarden.review.contract import ReadRequest, ReceiptReadRequest, ReviewRequest
from memwarden.review.responses import ContractRecord, RecordHistory
from memwarden.review.trail import record_trail
from memwarden.web.base import (
    ContextView,
    View,
    checked_form,
    context_router,
    new_token,
    text_field,
    validated,
)

router = context_router()
KINDS: tuple[str, ...] = get_args(Kind)
CATEGORIES: tuple[str, ...] = get_args(Category)
TIMELINE_PAGE = 50


def _search_page(
    view: ContextView,
    result: QueryResponse | None = None,
    filters: dict[str, Any] | None = None,
) -> Response:
    return view.render(
        "memories.html",
        result=result,
        filters=filters or {},
        kinds=KINDS,
        categories=CATEGORIES,
    )


@router.get("/memories")
async def memory_search_form(view: View) -> Response:
    return _search_page(view)


@router.post("/memories")
async def memory_search(view: View) -> Response:
    """A POST, so what was searched for stays out of the address bar and history."""
    form = await checked_form(view.request)
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
    result = await run_query(view.services, view.caller, view.context_id, body.to_input())
    return _search_page(view, result, filters)


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


async def _timeline(
    view: ContextView, record_id: uuid.UUID, cursor: str | None
) -> tuple[RecordHistory | None, str | None]:
    """The record's history for its timeline, or why this key may not see it (a reviewer
    without memory_read still reviews; the page says what is missing)."""
    try:
        found = await timeline.record_history(
            view.services.db,
            view.caller,
            view.context_id,
            record_id,
            cursor=cursor,
            limit=TIMELINE_PAGE,
        )
    except InvalidInput:
        raise
    except AppError as exc:
        return None, exc.message
    return found, None


async def _record_page(
    view: ContextView,
    record_id: uuid.UUID,
    visibility: str,
    outcome: dict[str, Any] | None = None,
    status: int = 200,
    cursor: str | None = None,
) -> Response:
    db, caller = view.services.db, view.caller
    read = _read(record_id, visibility)
    state = await history.review_state(db, caller, read)
    eligibility = await diagnostic.eligibility(db, caller, read)
    trail = await record_trail(db, caller, read)
    revisions, hidden = await _timeline(view, record_id, cursor)
    record: ContractRecord | None = None
    try:
        record = (await records.read_record(db, caller, read)).record
    except NotFound:
        record = None  # not served (rejected, deleted, expired or blocked): metadata only
    receipt = None
    if state.state.review:
        receipt_req = ReceiptReadRequest.model_validate(
            {
                "contract_version": 1,
                "scope": {"visibility": visibility},
                "record_id": str(record_id),
                "revision": state.state.revision,
            }
        )
        try:
            receipt = (await history.read_receipt(db, caller, receipt_req)).receipt
        except NotFound:
            receipt = None
    return view.render(
        "record.html",
        status=status,
        record_id=record_id,
        visibility=visibility,
        record=record,
        state=state.state,
        eligibility=eligibility,
        trail=trail,
        history=revisions,
        history_hidden=hidden,
        receipt=receipt,
        outcome=outcome,
        may_erase=caller.can_any("grant:manage"),
    )


@router.get("/memories/{record_id}")
async def memory_record(
    view: View, record_id: uuid.UUID, visibility: str = "shared", cursor: str | None = None
) -> Response:
    """`cursor`: older revisions of the timeline (the history's `next_cursor`)."""
    return await _record_page(view, record_id, visibility, cursor=cursor)


@router.post("/memories/{record_id}/review")
async def memory_review(view: View, record_id: uuid.UUID) -> Response:
    form = await checked_form(view.request)
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
    result = await decisions.decide(view.services.db, view.caller, req)
    outcome = {"kind": "review", "result": result}
    if text_field(form, "then") == "search":
        return view.redirect("/memories")
    return await _record_page(view, record_id, visibility, outcome)
