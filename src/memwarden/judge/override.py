"""A reviewer's verdict beside the judge's, and the at-most-once replay of a kept request.

The replay runs as the original principal with its current grants narrowed by the
original key, so approving a write never gives it more access than it had; the judge
does not check the replayed content again. The retained row stays locked until it is
marked consumed in the same transaction as the override, so two overrides racing on
one judgement ingest once: the second finds nothing kept (`not_retained`).
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from memwarden.admin.access import require_manage
from memwarden.domain.grants import Caller, effective_grants
from memwarden.errors import InvalidInput, NotFound
from memwarden.judge.policy import is_replayable_source
from memwarden.judge.replay import ingest_retained
from memwarden.judge.review import RECORDED_VERDICTS, render
from memwarden.services import Services
from memwarden.store import admin as admin_store
from memwarden.store import judgements as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn

ReplayState = Literal["not_requested", "ingested", "not_retained", "not_replayable"]


async def override(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    *,
    verdict: str,
    replay: bool = False,
) -> dict[str, Any]:
    require_manage(caller, context_id)
    if verdict not in RECORDED_VERDICTS:
        raise InvalidInput("verdict must be pass, warn or fail", field="verdict")
    if replay and verdict != "pass":
        raise InvalidInput("only a pass verdict can replay the request", field="replay")
    async with services.db.transaction() as conn:
        row = await store.lock_judgement(conn, context_id, judgement_id)
        if row is None:
            raise NotFound("judgement not found")
        state: ReplayState = "not_requested"
        written: dict[str, Any] | None = None
        if replay:
            state, written = await _replay(services, conn, context_id, row)
        await store.set_override(
            conn,
            context_id,
            judgement_id,
            verdict=verdict,
            subject=caller.subject,
            replay_state=state,
        )
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="judge.override",
            target_kind="judgement",
            target_id=judgement_id,
        )
        updated = await store.get_judgement(conn, context_id, judgement_id)
    assert updated is not None
    return {"judgement": render(updated), "replay": state, "ingest": written}


async def _replay(
    services: Services, conn: Conn, context_id: uuid.UUID, row: store.Judgement
) -> tuple[ReplayState, dict[str, Any] | None]:
    if row.gate != "input" or not is_replayable_source(row.source):
        return "not_replayable", None
    kept = await store.lock_retained(conn, context_id, row.id)
    if kept is None:
        return "not_retained", None
    original = await original_caller(conn, context_id, kept.principal_id, kept.key_id)
    written = await ingest_retained(services, original, context_id, kept.route, kept.payload)
    await store.consume_retained(conn, context_id, row.id)
    return "ingested", written


async def original_caller(
    conn: Conn, context_id: uuid.UUID, principal_id: uuid.UUID, key_id: uuid.UUID
) -> Caller:
    """The principal's current grants narrowed by the original key (none if it is gone)."""
    found = await admin_store.key_grants(conn, context_id, key_id)
    if found is None or found.revoked_at is not None:
        return Caller(context_id, principal_id, found.subject if found else "", key_id, {})
    pairs = [tuple(g.split("|", 1)) for g in found.principal_grants]
    grants = effective_grants(pairs, found.capabilities, found.scope_prefix)  # type: ignore[arg-type]
    return Caller(context_id, principal_id, found.subject, key_id, grants)
