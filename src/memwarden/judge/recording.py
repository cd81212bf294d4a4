"""Writing review-log entries, the `judge.fail` audit and retained inputs.

Entries are written in the caller's transaction: a refusal's in its own, a write's
pass/warn entries in the write's, so a write that fails leaves no entry behind.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from memwarden.domain.ids import new_id
from memwarden.gatekeeper import GateRequest, PendingJudgement
from memwarden.judge.policy import is_replayable_source
from memwarden.judge.text import EXCERPT_CHARS, guarded, guarded_value
from memwarden.store import judgements as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn


async def write_entry(
    conn: Conn,
    request: GateRequest,
    entry: PendingJudgement,
    *,
    turn_id: uuid.UUID | None = None,
    document_id: uuid.UUID | None = None,
) -> uuid.UUID:
    jid = new_id()
    caller = request.caller
    await store.insert_judgement(
        conn,
        {
            "context_id": request.context_id,
            "id": jid,
            "gate": entry.gate,
            "verdict": entry.verdict,
            "reasons": list(entry.reasons),
            "source": request.source,
            "scope_path": request.scope.path,
            "visibility": request.scope.visibility,
            "excerpt": guarded(entry.excerpt, request.config)[:EXCERPT_CHARS],
            "row_count": entry.row_count,
            "principal_id": caller.principal_id,
            "key_id": caller.key_id,
            "turn_id": turn_id,
            "document_id": document_id or request.document_id,
            "held": entry.held,
        },
    )
    if entry.verdict == "fail":
        await audit(
            conn,
            context_id=request.context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="judge.fail",
            target_kind="judgement",
            target_id=jid,
        )
    # A warn's request is kept as a fail's is; a replay ingests it only once its write is
    # gone (a rejected hold), never beside the write that went ahead (judge/override.py).
    if entry.gate == "input" and entry.verdict in ("warn", "fail") and should_retain(request):
        await retain(conn, request, jid)
    return jid


def should_retain(request: GateRequest) -> bool:
    caller = request.caller
    return (
        request.config.judge.retain_inputs
        and is_replayable_source(request.source)
        and request.retain_payload is not None
        and caller.principal_id is not None
        and caller.key_id is not None
    )


async def retain(conn: Conn, request: GateRequest, judgement_id: uuid.UUID) -> None:
    """Keep the (redacted) request for replay, for the Context's retention period."""
    days = request.config.judge.retention_days
    expires = datetime.now(UTC) + timedelta(days=days) if days > 0 else None
    assert request.caller.principal_id is not None and request.caller.key_id is not None
    await store.insert_retained(
        conn,
        context_id=request.context_id,
        judgement_id=judgement_id,
        route=request.source,
        payload=guarded_value(request.retain_payload, request.config),
        principal_id=request.caller.principal_id,
        key_id=request.caller.key_id,
        expires_at=expires,
    )
