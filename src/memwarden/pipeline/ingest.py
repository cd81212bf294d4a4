"""The facts use case: one turn in, judged, extracted, reconciled, in one transaction.

Order matters: configuration (an unreadable one refuses the write), budget, redaction, the
input gate, extraction and the row gate all run before the transaction opens, so no model
call ever happens while a transaction or lock is held, and a failure leaves nothing behind.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import structlog

from memwarden import budget
from memwarden.admin.access import require_context
from memwarden.admin.settings_service import read_config
from memwarden.config import ContextConfig
from memwarden.detectors.redaction import redact
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.scope import Scope, ScopeError, Visibility, from_paths
from memwarden.domain.speaker import Speaker, SpeakerError, check_speaker, speaker_for
from memwarden.embedding import Vector, billed
from memwarden.errors import Forbidden, InvalidInput, UpstreamError
from memwarden.gatekeeper import GateRequest
from memwarden.hygiene.candidates import supersede_candidates
from memwarden.models.base import ModelTransportError
from memwarden.models.deadline import request_deadline
from memwarden.pipeline import commit, gating, reconcile
from memwarden.pipeline.chunking import chunk_text
from memwarden.pipeline.extraction import (
    ExtractionDiff,
    ExtractionReport,
    ExtractionResult,
    extract,
    extract_spans,
)
from memwarden.pipeline.injection_scan import scan_items
from memwarden.pipeline.responses import DeclaredSupersede, FactsResponse, SupersedeCandidates
from memwarden.pipeline.responses import ExtractionResult as ExtractionAnswer
from memwarden.pipeline.session import Session, check_session, store_turn
from memwarden.pipeline.textcheck import check_text
from memwarden.services import Services
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

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
    # The writer's own earlier records this write replaces (declared, no judge involved).
    supersedes: Sequence[uuid.UUID] = ()
    # The end user who speaks the turn (an id), when not named by a `user/<id>` scope pair;
    # neither: the principal speaks for itself (domain/speaker.py).
    speaker: str | None = None


def authorise(caller: Caller, context_id: uuid.UUID, item: FactsInput) -> Scope:
    """403 unless a Context key holds memory_write covering the write scope; 400 for bad input."""
    require_context(caller, context_id)
    if caller.principal_id is None:
        raise Forbidden("writes need a Context key", code="context_key_required")
    try:
        scope = from_paths(list(item.scope) if item.scope else None, item.visibility)
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    if item.speaker is not None:
        try:
            check_speaker(item.speaker)
        except SpeakerError as exc:
            raise InvalidInput(str(exc), field="speaker") from None
    if not caller.can("memory_write", scope.path):
        raise Forbidden("needs memory_write covering the write scope", code="missing_grant")
    check_text(item.text)
    return scope


@dataclass
class PreparedFacts:
    """A facts write with every model call done (judged, extracted, embedded), waiting for
    a transaction: the caller's own (a replay commits it with the override), or its own."""

    services: Services
    caller: Caller
    write: commit.Write
    session: Session
    turn_id: uuid.UUID
    chunks: list[str]
    vectors: dict[str, Vector]
    written: commit.Written | None = None  # once `commit` ran

    @property
    def speaker(self) -> Speaker | None:
        return self.write.meta.speaker

    async def commit(self, conn: Conn) -> FactsResponse:
        """The write's rows, in `conn`'s transaction; the caller commits or rolls back."""
        write, chunks = self.write, self.chunks

        async def turn(conn: Conn, hold: uuid.UUID | None, vectors: Mapping[str, Vector]) -> None:
            """The session, the turn and its chunks; held with the write when the input is."""
            chunk_vectors = [vectors.get(c) for c in chunks]
            await store_turn(
                conn,
                self.caller,
                write.where,
                self.session,
                self.turn_id,
                write.request.text,
                chunks,
                chunk_vectors,
                hold,
                self.speaker.key if self.speaker else None,
            )

        written = await commit.commit(conn, self.services, write, self.vectors, source_rows=turn)
        self.written = written
        body = FactsResponse(
            sessionId=str(self.session.id),
            turnId=str(self.turn_id),
            held=written.write_hold is not None,
            extraction=extraction_body(self.turn_id, written.plan.diff, write.extraction),
        )
        if written.declared:
            body.supersedes = [DeclaredSupersede(**d) for d in written.declared]
        return body


async def write_facts(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    item: FactsInput,
    *,
    source: WriteSource = "facts",
    session: Session | None = None,
) -> FactsResponse:
    with request_deadline(services.settings.request_deadline_s):
        prepared = await prepare_facts(services, caller, context_id, item, source, session)
        async with services.db.transaction(generic_plans=True) as conn:
            body = await prepared.commit(conn)
    if prepared.written is not None:
        await commit.scan_after(services, context_id, prepared.written)
        if source != "chat":  # a chat answer does not show them: no scan to pay for
            body.supersedeCandidates = await _candidates(services, context_id, prepared)
    return body


async def _candidates(
    services: Services, context_id: uuid.UUID, prepared: PreparedFacts
) -> list[SupersedeCandidates]:
    """After the commit: near neighbours the new records might replace (hygiene's filter)."""
    assert prepared.written is not None
    ids = [r.id for r in prepared.written.plan.records if not r.held]
    if not ids:
        return []
    config = prepared.write.request.config.hygiene
    async with services.db.transaction(generic_plans=True) as conn:
        found = await supersede_candidates(conn, context_id, ids, config)
    return [SupersedeCandidates.model_validate(c) for c in found]


async def prepare_facts(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    item: FactsInput,
    source: WriteSource = "facts",
    session: Session | None = None,
) -> PreparedFacts:
    """Everything before the transaction: grants, configuration, budget, the gates,
    extraction and embedding. Nothing is written (but usage a refusal books)."""
    scope = authorise(caller, context_id, item)
    async with services.db.connection() as conn:
        config = await read_config(conn, context_id)
        if item.infer == "full":
            await budget.check_budget(conn, context_id, config.token_budget)
        opened = session or await check_session(conn, caller, context_id, scope, item.session_id)
        await commit.check_declared(conn, caller, context_id, item.supersedes, scope)
    where = WriteScope(context_id, scope.path, scope.visibility, caller.subject)
    speaker = speaker_for(
        scope.path, check_speaker(item.speaker) if item.speaker else None, caller.subject
    )
    turn_id = new_id()
    write, chunks = await _prepare(services, caller, where, item, config, source, turn_id, speaker)
    if billed(services):  # a remote embedder spends the Context's tokens too
        await budget.check_before_call(services.db, context_id, config.token_budget)
    vectors = await commit.draft(services, write, chunks)
    return PreparedFacts(services, caller, write, opened, turn_id, chunks, vectors)


def extraction_body(
    turn_id: uuid.UUID, diff: Mapping[str, Any], report: ExtractionReport | None
) -> ExtractionAnswer:
    """The reconciled diff as the API shows it; `chunkOnly` when no window's reply could be
    used (the turn is stored and searchable as chunks only, and can be reprocessed)."""
    chunk_only = report is not None and report.chunk_only
    return ExtractionAnswer(turnId=str(turn_id), **diff, chunkOnly=chunk_only)


async def _prepare(
    services: Services,
    caller: Caller,
    where: WriteScope,
    item: FactsInput,
    config: ContextConfig,
    source: WriteSource,
    turn_id: uuid.UUID,
    speaker: Speaker,
) -> tuple[commit.Write, list[str]]:
    """Redact, gate the input, extract, gate the rows, chunk: no transaction is open."""
    text = redact(item.text).text if config.pii_redaction_enabled else item.text
    scope = Scope(where.scope_path, where.visibility)  # type: ignore[arg-type]
    body: dict[str, Any] = {
        "infer": item.infer,
        "scope": [scope.path],
        "visibility": scope.visibility,
        "sessionId": str(item.session_id) if item.session_id else None,
        # Everything else the write used, so a replay ingests the request as it was sent.
        "supersedes": [str(i) for i in item.supersedes],
        "speaker": item.speaker,
    }
    retain = gating.retain_payload(text, body, config)
    request = GateRequest(where.context_id, caller, config, source, scope, text, retain)
    verdict = await services.gatekeeper.input_gate(request)
    sink = Bookings()
    diff = ExtractionDiff()
    report = None
    if item.infer == "full":
        result = await extract_turn(services, where.context_id, text, config, sink, speaker=speaker)
        diff, report = result.diff, ExtractionReport.of([result])
    items, verdicts = await commit.gate_rows(services, request.holding(verdict.hold), diff)
    chunks = chunk_text(text)
    write = commit.Write(
        request=request,
        where=where,
        items=items + scan_items(chunks),
        verdicts=verdicts,
        meta=reconcile.WriteMeta(turn_id, caller.subject, speaker=speaker),
        sink=sink,
        action=f"{source}.write",
        target_kind="turn",
        input=verdict,
        turn_id=turn_id,
        extraction=report,
        supersedes=tuple(item.supersedes),
    )
    return write, chunks


async def extract_turn(
    services: Services,
    context_id: uuid.UUID,
    text: str,
    config: ContextConfig,
    sink: Bookings,
    spans: Sequence[tuple[int, int]] | None = None,
    *,
    speaker: Speaker | None = None,
) -> ExtractionResult:
    """The turn's windows (or only `spans` of it, for a reprocess) with the deployment's
    extraction model, the budget checked before each window (429 once spent). Provider and
    transport errors are the deployment's problem: 502, nothing written. Either way, and
    when the write goes on, the windows' tokens are booked now: they were spent, and the
    budget checks before the write's later calls (row judge, embedder) must count them."""
    addendum = config.prompt_addendums.extraction
    provider = services.models.extraction
    check = partial(budget.check_before_call, services.db, context_id, config.token_budget, sink)
    try:
        who = speaker.display if speaker else None
        if spans is None:
            result = await extract(text, provider, addendum, sink, speaker=who, before_call=check)
        else:
            result = await extract_spans(
                text, spans, provider, addendum, sink, speaker=who, before_call=check
            )
    except ModelTransportError as exc:
        await sink.flush(services.db, context_id)
        raise UpstreamError("the extraction model could not be reached") from exc
    await sink.flush(services.db, context_id)
    if result.windows_failed:
        log.warning("extraction_partial", failed=result.windows_failed, run=result.windows_run)
    return result
