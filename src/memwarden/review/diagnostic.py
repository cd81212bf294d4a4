"""The eligibility diagnostic: which record, if any, keeps a memory from being served."""

from __future__ import annotations

import uuid

from memwarden.domain.eligibility import MAX_SOURCE_DEPTH, RecordState, first_blocking
from memwarden.domain.grants import Caller
from memwarden.review.access import require_any, require_record, to_scope
from memwarden.review.contract import CONTRACT_VERSION, ReadRequest
from memwarden.review.responses import BlockingRecord, EligibilityAnswer
from memwarden.store import memory as store
from memwarden.store.db import Database
from memwarden.store.memory import SourceNode


def _state(row: SourceNode) -> RecordState:
    return RecordState(
        serving=row.serving,
        review_disposition=row.review_disposition,
        expires_at=row.expires_at,
        valid_to=row.valid_to,
        derived_from=tuple(row.derived_from or ()),
    )


def _may_see(caller: Caller, row: SourceNode) -> bool:
    if row.visibility == "private" and row.owner_subject != caller.subject:
        return False
    return caller.can("memory_review", row.scope_path) or caller.can("memory_read", row.scope_path)


async def eligibility(db: Database, caller: Caller, request: ReadRequest) -> EligibilityAnswer:
    """Metadata only. A blocking source the caller may not see is reported as `restricted`."""
    context_id = require_any(caller, "memory_review")
    scope = to_scope(request.scope)
    async with db.connection() as conn:
        found = await store.record_state(conn, context_id, request.record_id)
        require_record(found, scope, caller, "memory_review")
        rows = await store.source_graph(conn, context_id, request.record_id, MAX_SOURCE_DEPTH)
    by_id: dict[uuid.UUID, SourceNode] = {row.id: row for row in rows}
    now = rows[0].server_now
    states = {rid: _state(row) for rid, row in by_id.items()}
    blocking = first_blocking(request.record_id, states, now)
    blocked: BlockingRecord | None = None
    if blocking is not None:
        visible = _may_see(caller, by_id[blocking.record_id])
        blocked = BlockingRecord(
            record_id=str(blocking.record_id),
            reason=blocking.reason if visible else "restricted",
            depth=blocking.depth,
        )
    return EligibilityAnswer(
        contract_version=CONTRACT_VERSION,
        record_id=str(request.record_id),
        servable=blocking is None,
        blocking=blocked,
    )
