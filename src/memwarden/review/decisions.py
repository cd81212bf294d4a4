"""Revision-checked review decisions with idempotency keys and receipts.

A decision advances the record's revision without touching content or author, and commits
the record, its revision row, the receipt, a `reviewed` change event and an audit event in
one transaction. The record row is locked, so of competing decisions for one expected
revision exactly one wins; the rest see a stale revision (409).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.provenance import Rank
from memwarden.errors import Conflict, Erased, Forbidden, IntegrityFailure, NotFound
from memwarden.review import render
from memwarden.review.access import require_any, require_record, to_scope
from memwarden.review.commands import stale
from memwarden.review.contract import CONTRACT_VERSION, ReviewRequest
from memwarden.review.responses import Receipt, ReceiptAnswer
from memwarden.store import memory as store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn, Database
from memwarden.store.errors import DuplicateRow
from memwarden.store.memory import NewReceipt, ReceiptRow


def command_digest(request: ReviewRequest) -> str:
    """sha256 of the canonical scope and command: what an idempotency key stands for."""
    canonical = request.model_dump(mode="json")
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def check_receipt(conn: Conn, context_id: uuid.UUID, receipt: ReceiptRow) -> None:
    """A receipt must name a revision its record's history made by a decision."""
    op = await store.revision_op(conn, context_id, receipt.record_id, receipt.revision)
    if op != "review":
        raise IntegrityFailure("a review receipt does not match its record's history")


async def _replay(
    conn: Conn, caller: Caller, context_id: uuid.UUID, key: str, digest: str
) -> dict[str, Any] | None:
    """The original receipt for a retried command, after checking the current grants."""
    prior = await store.receipt_by_key(conn, context_id, caller.subject, key)
    if prior is None:
        return None
    if prior.command_digest != digest:
        raise Conflict(
            "this idempotency_key was used for a different command",
            code="idempotency_conflict",
            field="command.idempotency_key",
        )
    if prior.scope_path is None:
        raise IntegrityFailure("a review receipt names a record that does not exist")
    if prior.visibility == "private" and prior.owner_subject != caller.subject:
        raise NotFound("memory record not found")
    if not caller.can("memory_review", prior.scope_path):
        raise Forbidden("needs memory_review covering the record's scope", code="missing_grant")
    await check_receipt(conn, context_id, prior)
    return render.receipt(prior)


def _answer(receipt: dict[str, Any]) -> ReceiptAnswer:
    return ReceiptAnswer(contract_version=CONTRACT_VERSION, receipt=Receipt(**receipt))


async def decide(db: Database, caller: Caller, request: ReviewRequest) -> ReceiptAnswer:
    context_id = require_any(caller, "memory_review")
    cmd, digest = request.command, command_digest(request)
    key = cmd.idempotency_key
    if key is not None:
        async with db.connection() as conn:
            prior = await _replay(conn, caller, context_id, key, digest)
        if prior is not None:
            return _answer(prior)
    try:
        async with db.transaction() as conn:
            return _answer(await _decide_locked(conn, caller, context_id, request, digest))
    except DuplicateRow:
        # A concurrent decision with the same idempotency key committed first.
        if key is None:
            raise Conflict("a concurrent decision won", code="stale_revision") from None
        async with db.connection() as conn:
            prior = await _replay(conn, caller, context_id, key, digest)
        if prior is None:
            raise Conflict("a concurrent decision won", code="stale_revision") from None
        return _answer(prior)


async def _decide_locked(
    conn: Conn, caller: Caller, context_id: uuid.UUID, request: ReviewRequest, digest: str
) -> dict[str, Any]:
    cmd, scope = request.command, to_scope(request.scope)
    locked = await store.lock_record(conn, context_id, cmd.record_id)
    row = require_record(locked, scope, caller, "memory_review")
    if cmd.idempotency_key is not None:
        # Re-read under the lock: an identical retry that just committed wins here.
        prior = await _replay(conn, caller, context_id, cmd.idempotency_key, digest)
        if prior is not None:
            return prior
    if row.serving == "erased":
        raise Erased()
    if row.serving == "deleted":
        raise NotFound("memory record not found")
    if row.revision != cmd.expected_revision:
        raise stale(row.revision)
    receipt_id = new_id()
    stored = None if cmd.disposition == "unreviewed" else cmd.disposition
    done = await store.apply_review(
        conn,
        context_id=context_id,
        id=cmd.record_id,
        expected_revision=cmd.expected_revision,
        stored_disposition=stored,
        receipt_id=receipt_id,
        raise_rank=int(Rank.AUTHORITATIVE if stored == "approved" else Rank.DERIVED),
    )
    if done is None or done.revision != cmd.expected_revision + 1:
        raise IntegrityFailure("the locked record changed during a decision")
    new = NewReceipt(
        context_id=context_id,
        id=receipt_id,
        record_id=cmd.record_id,
        revision=done.revision,
        disposition=cmd.disposition,
        reviewer_subject=caller.subject,
        key_id=caller.key_id,
        evidence_ref=cmd.evidence_ref,
        idempotency_key=cmd.idempotency_key,
        command_digest=digest,
        scope=request.scope.model_dump(mode="json"),
    )
    receipt = await store.insert_receipt(conn, new)
    await store.insert_revision(
        conn,
        context_id=context_id,
        record_id=cmd.record_id,
        revision=done.revision,
        op="review",
        content=done.content,
        actor_subject=caller.subject,
    )
    await change(
        conn,
        context_id=context_id,
        record_id=cmd.record_id,
        revision=done.revision,
        kind=row.kind,
        entry_type="reviewed",
    )
    await audit(
        conn,
        context_id=context_id,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action="memory.review",
        target_kind="memory_record",
        target_id=cmd.record_id,
    )
    return render.receipt(receipt)
