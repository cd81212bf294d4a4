"""Approving or rejecting held content: one decision per judgement, the second is 409.

Approval releases everything held under the judgement (turn, chunks, records) as it is:
it retires nothing, so a released value that conflicts with a current one leaves both
current until a later write settles them. Rejection marks the held content deleted
(serving `deleted`, never served again); retention and the memory commands own purging.
"""

from __future__ import annotations

import uuid
from typing import Any

import structlog

from memwarden.admin.access import require_manage
from memwarden.domain.grants import Caller
from memwarden.embedding import embed_records
from memwarden.errors import Conflict, NotFound
from memwarden.judge.review import render
from memwarden.services import Services
from memwarden.store import judgements as store
from memwarden.store import memory as memory_store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn

log = structlog.get_logger(__name__)


async def decide(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    *,
    approve: bool,
) -> dict[str, Any]:
    require_manage(caller, context_id)
    decision = "approved" if approve else "rejected"
    async with services.db.transaction() as conn:
        row = await store.lock_judgement(conn, context_id, judgement_id)
        if row is None:
            raise NotFound("judgement not found")
        if not row.held:
            raise Conflict("this judgement holds nothing", code="not_held")
        if row.hold_decision is not None:
            raise Conflict(f"this hold was already {row.hold_decision}", code="already_decided")
        await store.decide_hold(conn, context_id, judgement_id, decision)
        turns, chunks, records = await store.move_held(
            conn, context_id, judgement_id, release=approve
        )
        await _revise(conn, caller, context_id, records, approve)
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="judge.approve" if approve else "judge.reject",
            target_kind="judgement",
            target_id=judgement_id,
        )
        updated = await store.get_judgement(conn, context_id, judgement_id)
    assert updated is not None
    if approve and records:
        await _embed(services, context_id, [r.id for r in records])
    return {
        "judgement": render(updated),
        "changed": {"facts": len(records), "chunks": chunks, "turns": turns},
    }


async def _revise(
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    records: list[store.MovedRecord],
    approve: bool,
) -> None:
    """Each record's new revision gets its history row and a change-feed entry."""
    for record in records:
        await memory_store.insert_revision(
            conn,
            context_id=context_id,
            record_id=record.id,
            revision=record.revision,
            op="release" if approve else "delete",
            content=record.content,
            actor_subject=caller.subject,
        )
        await change(
            conn,
            context_id=context_id,
            record_id=record.id,
            revision=record.revision,
            kind=record.kind,
            entry_type="released" if approve else "deleted",
        )


async def _embed(services: Services, context_id: uuid.UUID, record_ids: list[uuid.UUID]) -> None:
    """Held records were not embedded; they are once released, after the decision commits.

    A failure here leaves the records released but unembedded (found by text search only
    until something embeds them); the decision itself stands.
    """
    try:
        async with services.db.transaction() as conn:
            await embed_records(conn, services, context_id, record_ids)
    except Exception as exc:
        log.warning(
            "judge_release_not_embedded", error_type=type(exc).__name__, records=len(record_ids)
        )
