"""A reviewer's verdict beside the judge's, and the at-most-once replay of a kept request.

The replay runs as the original principal with its current grants narrowed by the
original key, so approving a write never gives it more access than it had; the judge
does not check the replayed content again. Its model calls run first, outside any
transaction; then one transaction locks the judgement and the retained row, writes the
replayed request, marks the row consumed and records the override, so a failure anywhere
in it leaves the request replayable and nothing written, and two overrides racing on one
judgement ingest once: the second finds nothing kept (`not_retained`).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Literal

from memwarden.admin.access import require_judgements
from memwarden.answers import wire
from memwarden.domain.grants import Caller, effective_grants
from memwarden.errors import InvalidInput, NotFound
from memwarden.judge.policy import is_replayable_source
from memwarden.judge.replay import Replay, prepare_retained
from memwarden.judge.responses import OverrideResult, ReplayedWrite
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
) -> OverrideResult:
    require_judgements(caller, context_id)
    if verdict not in RECORDED_VERDICTS:
        raise InvalidInput("verdict must be pass, warn or fail", field="verdict")
    if replay and verdict != "pass":
        raise InvalidInput("only a pass verdict can replay the request", field="replay")
    # The replayed write's model calls (extraction, embedding) run before the transaction,
    # so no model call waits while the judgement and the kept request are locked.
    prepared = await _prepare_replay(services, context_id, judgement_id) if replay else None
    async with services.db.transaction() as conn:
        row = await store.lock_judgement(conn, context_id, judgement_id)
        if row is None:
            raise NotFound("judgement not found")
        state: ReplayState = "not_requested"
        written: ReplayedWrite | None = None
        if replay:
            state, written = await _replay(conn, context_id, row, prepared)
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
    return OverrideResult(judgement=render(updated), replay=state, ingest=written)


def _replayable(row: store.Judgement) -> bool:
    return row.gate == "input" and is_replayable_source(row.source)


def _written_already(row: store.Judgement) -> bool:
    """Replaying would write the request twice: it was replayed, or it is a warn whose
    write went ahead (stored and flagged, held, or approved). A rejected hold removed it."""
    if row.replay_state == "ingested":
        return True
    return row.verdict == "warn" and row.hold_decision != "rejected"


async def _prepare_replay(
    services: Services, context_id: uuid.UUID, judgement_id: uuid.UUID
) -> Replay | None:
    """The kept request, prepared as its original principal's write; None when nothing is
    kept (the transaction then answers not_retained or not_replayable under its locks)."""
    async with services.db.connection() as conn:
        row = await store.get_judgement(conn, context_id, judgement_id)
        if row is None:
            raise NotFound("judgement not found")
        kept = await store.peek_retained(conn, context_id, judgement_id)
        if kept is None or not _replayable(row) or _written_already(row):
            return None
        original = await original_caller(conn, context_id, kept.principal_id, kept.key_id)
    return await prepare_retained(services, original, context_id, kept.route, kept.payload)


async def _replay(
    conn: Conn, context_id: uuid.UUID, row: store.Judgement, prepared: Replay | None
) -> tuple[ReplayState, ReplayedWrite | None]:
    """Under the judgement's lock: the write and the consuming of the kept request commit
    together (or not at all), so a failure between them cannot allow a second replay.
    A request already written is never written again, whatever is kept."""
    if not _replayable(row):
        return "not_replayable", None
    if _written_already(row):
        return "not_retained", None
    kept = await store.lock_retained(conn, context_id, row.id)
    if kept is None or prepared is None:
        return "not_retained", None
    written = await prepared.prepared.commit(conn)
    await store.consume_retained(conn, context_id, row.id)
    return "ingested", ReplayedWrite.model_validate(
        {**wire(written), "sessionReplay": prepared.session}
    )


async def original_caller(
    conn: Conn, context_id: uuid.UUID, principal_id: uuid.UUID, key_id: uuid.UUID
) -> Caller:
    """The principal's current grants narrowed by the original key: none once the key is
    gone, revoked or expired (a replay runs only as far as the key could still write)."""
    found = await admin_store.key_grants(conn, context_id, key_id)
    now = datetime.now(UTC)
    expired = found is not None and found.expires_at is not None and found.expires_at <= now
    if found is None or found.revoked_at is not None or expired:
        return Caller(context_id, principal_id, found.subject if found else "", key_id, {})
    pairs = [tuple(g.split("|", 1)) for g in found.principal_grants]
    grants = effective_grants(pairs, found.capabilities, found.scope_prefix)  # type: ignore[arg-type]
    return Caller(context_id, principal_id, found.subject, key_id, grants)
