"""A record's trail for reviewers: its revisions, the sources it was derived from and its
change events. Metadata only (operations, actors, ids, times), like the review state."""

from __future__ import annotations

from typing import Any

from memwarden.domain.grants import Caller
from memwarden.review.access import require_any, require_record, to_scope
from memwarden.review.contract import CONTRACT_VERSION, ReadRequest
from memwarden.store import memory as store
from memwarden.store import record_history
from memwarden.store.db import Database

MAX_ENTRIES = 50


async def record_trail(db: Database, caller: Caller, request: ReadRequest) -> dict[str, Any]:
    """Newest first, at most MAX_ENTRIES of each; works for unservable records too."""
    context_id = require_any(caller, "memory_review")
    scope = to_scope(request.scope)
    async with db.connection() as conn:
        found = await store.record_state(conn, context_id, request.record_id)
        row = require_record(found, scope, caller, "memory_review")
        revisions = await record_history.revisions(conn, context_id, request.record_id, MAX_ENTRIES)
        changes = await record_history.change_events(
            conn, context_id, request.record_id, MAX_ENTRIES
        )
    return {
        "contract_version": CONTRACT_VERSION,
        "record_id": str(request.record_id),
        "derived_from": [str(source) for source in row.derived_from],
        "revisions": [
            {
                "revision": r.revision,
                "op": r.op,
                "actor": r.actor_subject,
                "at": r.created_at.isoformat(),
            }
            for r in revisions
        ],
        "changes": [
            {
                "seq": c.seq,
                "revision": c.revision,
                "kind": c.kind,
                "entry_type": c.entry_type,
                "at": c.created_at.isoformat(),
            }
            for c in changes
        ],
    }
