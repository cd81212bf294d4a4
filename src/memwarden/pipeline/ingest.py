"""The facts use case: one turn in, judged, extracted, reconciled, in one transaction.

Order matters: configuration (an unreadable one refuses the write), budget, redaction, the
input gate, extraction and the row gate all run before the transaction opens, so no model
call ever happens while a transaction or lock is held, and a failure leaves nothing behind.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import structlog

from memwarden import budget
from memwarden.admin.access import require_context
from memwarden.admin.settings_service import read_config
from memwarden.config import ContextConfig
from memwarden.detectors.redaction import redact
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.reconcile_rules import Incoming
from memwarden.domain.scope import Scope, ScopeError, Visibility, from_paths
from memwarden.errors import BudgetExhausted, Forbidden, InvalidInput, UpstreamError
from memwarden.judge.interface import GateRequest, InputVerdict, RowVerdicts
from memwarden.models.base import BudgetExceeded, ModelTransportError
from memwarden.pipeline import gating, reconcile
from memwarden.pipeline.chunking import chunk_text
from memwarden.pipeline.embedding import Vector, embed_texts, embedder_name
from memwarden.pipeline.extraction import ExtractionDiff, extract
from memwarden.pipeline.injection_scan import scan_items
from memwarden.pipeline.session import Session, check_session, store_turn
from memwarden.pipeline.textcheck import check_text
from memwarden.store.audit import audit
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope

if TYPE_CHECKING:
    from memwarden.bootstrap import Services

log = structlog.get_logger(__name__)


# Sources that write a turn through this use case; "chat" is POST /chat with remember on,
# which the gates treat as chat (warnings flagged, never held; no replay).
WriteSource = Literal["facts", "facts_batch", "chat"]


@dataclass(frozen=True)
class FactsInput:
    text: str
    infer: Literal["full", "none"] = "full"
    scope: Sequence[str] | None = None
    visibility: Visibility = "shared"
    session_id: uuid.UUID | None = None


def counters(services: Services) -> Counter[str]:
    """Process-wide write-path counters (dropped extraction bytes, windows that failed)."""
    return services.extras.setdefault("write_counters", Counter())


def authorise(caller: Caller, context_id: uuid.UUID, item: FactsInput) -> Scope:
    """403 unless a Context key holds memory_write covering the write scope; 400 for bad input."""
    require_context(caller, context_id)
    if caller.principal_id is None:
        raise Forbidden("writes need a Context key", code="context_key_required")
    try:
        scope = from_paths(list(item.scope) if item.scope else None, item.visibility)
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    if not caller.can("memory_write", scope.path):
        raise Forbidden("needs memory_write covering the write scope", code="missing_grant")
    check_text(item.text)
    return scope


@dataclass
class _Prepared:
    """Everything decided before the transaction: verdicts, gated items, vectors."""

    request: GateRequest
    verdict: InputVerdict
    verdicts: RowVerdicts
    items: list[Incoming]
    sink: gating.Bookings
    chunks: list[str]
    vectors: dict[str, Vector]


async def write_facts(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    item: FactsInput,
    *,
    source: WriteSource = "facts",
    session: Session | None = None,
) -> dict[str, Any]:
    scope = authorise(caller, context_id, item)
    async with services.db.connection() as conn:
        config = await read_config(conn, context_id)
        if item.infer == "full":
            await budget.check_budget(conn, context_id, config.token_budget)
        session = session or await check_session(conn, caller, context_id, scope, item.session_id)
    where = WriteScope(context_id, scope.path, scope.visibility, caller.subject)
    ready = await _prepare(services, caller, where, item, config, source)
    turn_id = new_id()
    async with services.db.transaction() as conn:
        return await _commit(conn, services, caller, where, ready, session, turn_id, source)


async def _prepare(
    services: Services,
    caller: Caller,
    where: WriteScope,
    item: FactsInput,
    config: ContextConfig,
    source: WriteSource,
) -> _Prepared:
    """Redact, gate the input, extract, gate the rows, embed: no transaction is open."""
    text = redact(item.text).text if config.pii_redaction_enabled else item.text
    scope = Scope(where.scope_path, where.visibility)  # type: ignore[arg-type]
    body: dict[str, Any] = {
        "infer": item.infer,
        "scope": [scope.path],
        "visibility": scope.visibility,
        "sessionId": str(item.session_id) if item.session_id else None,
    }
    retain = gating.retain_payload(text, body, config)
    request = GateRequest(where.context_id, caller, config, source, scope, text, retain)
    verdict = await services.gatekeeper.input_gate(request)
    sink = gating.Bookings()
    diff = ExtractionDiff()
    if item.infer == "full":
        diff = await _extract(services, where.context_id, text, config, sink)
    items, rows = gating.diff_rows(diff)
    verdicts = RowVerdicts(keep=frozenset())
    if rows:
        verdicts = await services.gatekeeper.row_gate(request, rows)
    items = gating.apply_verdicts(items, verdicts) + scan_items(chunk_text(text))
    chunks, vectors = await _vectors_before(services, where, text, items, sink)
    return _Prepared(request, verdict, verdicts, items, sink, chunks, vectors)


async def _commit(
    conn: Conn,
    services: Services,
    caller: Caller,
    where: WriteScope,
    ready: _Prepared,
    session: Session,
    turn_id: uuid.UUID,
    source: str,
) -> dict[str, Any]:
    """One transaction: review-log entries, session, turn, chunks, records, feed, usage."""
    pending = [p for p in (ready.verdict.pending, *ready.verdicts.pending) if p is not None]
    ids = await services.gatekeeper.record(conn, ready.request, pending, turn_id=turn_id)
    write_hold, row_holds = gating.hold_ids(pending, ids)
    if ready.verdict.hold and write_hold is None and ids:
        write_hold = ids[0]
    meta = reconcile.WriteMeta(
        turn_id, caller.subject, write_hold, row_holds, dict(ready.verdicts.warned)
    )
    vectors = ready.vectors
    chunk_vectors = [vectors.get(c) for c in ready.chunks]
    text = ready.request.text
    session = await store_turn(
        conn, caller, where, session, turn_id, text, ready.chunks, chunk_vectors, write_hold
    )
    await reconcile.lock_scope(conn, where)
    known = await reconcile.load_known(conn, where, ready.items, vectors)
    plan = reconcile.make_plan(ready.items, known, meta)
    missing = [t for t in reconcile.plan_texts(plan) if t not in vectors]
    vectors.update(zip(missing, await embed_texts(services, missing, ready.sink), strict=True))
    await reconcile.write_plan(conn, where, plan, meta, vectors, embedder_name(services))
    await ready.sink.write(conn, where.context_id)
    await audit(
        conn,
        context_id=where.context_id,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action=f"{source}.write",
        target_kind="turn",
        target_id=turn_id,
    )
    return {
        "sessionId": str(session.id),
        "turnId": str(turn_id),
        "held": write_hold is not None,
        "extraction": {"turnId": str(turn_id), **plan.diff},
    }


async def _extract(
    services: Services,
    context_id: uuid.UUID,
    text: str,
    config: ContextConfig,
    sink: gating.Bookings,
) -> ExtractionDiff:
    """Provider and transport errors are the deployment's problem: 502, nothing written
    (tokens already spent on earlier windows are still booked)."""
    addendum = config.prompt_addendums.extraction
    try:
        result = await extract(text, services.models.extraction, addendum, sink)
    except (ModelTransportError, BudgetExceeded) as exc:
        if sink.entries:
            async with services.db.transaction() as conn:
                await sink.write(conn, context_id)
        if isinstance(exc, BudgetExceeded):
            raise BudgetExhausted("the Context's token budget for this period is spent") from exc
        raise UpstreamError("the extraction model could not be reached") from exc
    count = counters(services)
    count["extraction_dropped_bytes"] += result.dropped_bytes
    count["extraction_windows_failed"] += result.windows_failed
    if result.windows_failed:
        log.warning("extraction_partial", failed=result.windows_failed, run=result.windows_run)
    return result.diff


async def _vectors_before(
    services: Services,
    where: WriteScope,
    text: str,
    items: list[Incoming],
    sink: gating.Bookings,
) -> tuple[list[str], dict[str, Vector]]:
    """Embed chunks, entity names and the draft plan's texts in one call, before the
    transaction. The draft resolves names exactly; the plan under the lock may resolve one
    by similarity too and then embeds the few texts that changed."""
    chunks = chunk_text(text)
    names = [name for name, _t in reconcile.entity_names(items).values()]
    texts = [*chunks, *names]
    if items:
        async with services.db.connection() as conn:
            known = await reconcile.load_known(conn, where, items, {})
        draft = reconcile.make_plan(items, known, reconcile.WriteMeta(new_id(), where.subject))
        texts += reconcile.plan_texts(draft)
    unique = list(dict.fromkeys(texts))
    return chunks, dict(zip(unique, await embed_texts(services, unique, sink), strict=True))
