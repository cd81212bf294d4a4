"""Metadata-only state of a record and the receipts of past decisions (reviewers only)."""

from __future__ import annotations

from memwarden.domain.grants import Caller
from memwarden.errors import NotFound
from memwarden.review import render
from memwarden.review.access import require_any, require_record, to_scope
from memwarden.review.contract import CONTRACT_VERSION, ReadRequest, ReceiptReadRequest
from memwarden.review.decisions import check_receipt
from memwarden.review.responses import (
    ContractScope,
    Receipt,
    ReceiptAnswer,
    RecordState,
    ReviewObject,
    ReviewStateAnswer,
)
from memwarden.store import memory as store
from memwarden.store.db import Database


async def review_state(db: Database, caller: Caller, request: ReadRequest) -> ReviewStateAnswer:
    """Revision, current decision, deleted and expired; works for unservable records too."""
    context_id = require_any(caller, "memory_review")
    scope = to_scope(request.scope)
    async with db.connection() as conn:
        found = await store.record_state(conn, context_id, request.record_id)
    row = require_record(found, scope, caller, "memory_review")
    deleted = row.serving in ("deleted", "erased")  # an erased record is deleted for good
    expires_at = row.expires_at
    expired = not deleted and expires_at is not None and expires_at <= row.server_now
    review = render.review_object(row)
    state = RecordState(
        record_id=str(row.id),
        revision=row.revision,
        review=ReviewObject(**review) if review is not None else None,
        deleted=deleted,
        expired=expired,
    )
    return ReviewStateAnswer(
        contract_version=CONTRACT_VERSION,
        scope=ContractScope.model_validate(request.scope.model_dump(mode="json")),
        state=state,
    )


async def read_receipt(db: Database, caller: Caller, request: ReceiptReadRequest) -> ReceiptAnswer:
    """The original receipt of the decision that produced `revision`; 404 for other ops."""
    context_id = require_any(caller, "memory_review")
    scope = to_scope(request.scope)
    async with db.connection() as conn:
        found = await store.record_state(conn, context_id, request.record_id)
        require_record(found, scope, caller, "memory_review")
        receipt = await store.receipt_by_revision(
            conn, context_id, request.record_id, request.revision
        )
        if receipt is None:
            raise NotFound("no review decision produced this revision", code="review_not_found")
        await check_receipt(conn, context_id, receipt)
    return ReceiptAnswer(
        contract_version=CONTRACT_VERSION, receipt=Receipt(**render.receipt(receipt))
    )
