"""Reprocessing a turn whose extraction failed (spec 4: "the content remains searchable and
can be reprocessed").

Only the windows whose reply could not be used are sent again, cut from the stored
(redacted) turn text, so nothing is redacted, chunked or embedded twice. The input gate is
not run again: the turn passed it when it was written (a denied turn was never stored), so
reprocessing never re-enters its deny path. The new rows pass the row gate and go through
the write unit like any write; reconciliation makes a fact that is already known a no-op.
A turn with no failed window answers 409 `nothing_to_reprocess` without a model call, so
reprocessing twice writes nothing the second time.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from memwarden import budget
from memwarden.admin.access import require_capability
from memwarden.admin.settings_service import read_config
from memwarden.config import ContextConfig
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Scope
from memwarden.domain.speaker import from_key, speaker_for
from memwarden.errors import Conflict, Forbidden, NotFound
from memwarden.gatekeeper import GateRequest
from memwarden.models.deadline import request_deadline
from memwarden.pipeline import commit, reconcile
from memwarden.pipeline.extraction import (
    ExtractionDiff,
    ExtractionReport,
    ExtractionResult,
    FailedWindow,
)
from memwarden.pipeline.ingest import extract_turn, extraction_body
from memwarden.pipeline.responses import ReprocessExtraction, ReprocessResponse
from memwarden.services import Services
from memwarden.store import extraction as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings


def check_item(
    caller: Caller, context_id: uuid.UUID, row: Mapping[str, Any] | None, *, held: bool = False
) -> Scope:
    """403 without any memory_write grant, 404 for an item the caller cannot see (missing,
    deleted, another subject's private one, or outside every scope its grants cover, so that
    an id there answers as a random one does), 403 without memory_write over a scope it can
    read, 409 while a hold awaits review."""
    require_capability(caller, context_id, "memory_write")
    if caller.principal_id is None:
        raise Forbidden("reprocessing needs a Context key", code="context_key_required")
    if row is None or (row["visibility"] == "private" and row["owner_subject"] != caller.subject):
        raise NotFound("not found")
    if not caller.can("memory_write", row["scope_path"]):
        seen = ("memory_read", "memory_review")
        if not any(caller.can(c, row["scope_path"]) for c in seen):
            raise NotFound("not found")
        raise Forbidden("needs memory_write covering the item's scope", code="missing_grant")
    if held:
        raise Conflict("the item is held for review: approve or reject it first", code="held")
    return Scope(row["scope_path"], row["visibility"])


def failed_windows(row: Mapping[str, Any]) -> list[FailedWindow]:
    """The item's failed windows; 409 when there are none (nothing extracted failed)."""
    failed = [FailedWindow.from_json(f) for f in row["extraction_failed"] or []]
    if not failed:
        raise Conflict("no extraction window of this item failed", code="nothing_to_reprocess")
    return failed


async def prepare(
    conn: Conn, context_id: uuid.UUID, row: Mapping[str, Any]
) -> tuple[list[FailedWindow], ContextConfig]:
    """Before any model call: the item's failed windows (409 when none), the Context's
    configuration, and its token budget checked."""
    failed = failed_windows(row)
    config = await read_config(conn, context_id)
    await budget.check_budget(conn, context_id, config.token_budget)
    return failed, config


def retried(
    windows: int, failed: Sequence[FailedWindow], results: Mapping[int, ExtractionResult]
) -> ExtractionReport:
    """The reprocess's report: the item's window count and the windows still failing
    (`results` by part, each over that part's failed windows)."""
    still = tuple(f for f in failed if (f.start, f.end) in set(results[f.part].failed_spans))
    return ExtractionReport(windows=windows, run=len(failed), failed=still)


async def write_retried(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    config: ContextConfig,
    *,
    kind: Literal["turn", "document"],
    item_id: uuid.UUID,
    row: Mapping[str, Any],
    scope: Scope,
    text: str,
    diff: ExtractionDiff,
    report: ExtractionReport,
    sink: Bookings,
) -> ReprocessResponse:
    """The retried windows' rows through the row gate and the write unit, in the item's
    scope and owned by its owner, audited as `<kind>.reprocess`; the route's answer."""
    owner = row["owner_subject"]
    # A turn is extracted again as the speaker who spoke it; a document as its uploader's.
    if kind == "turn":
        speaker = from_key(row.get("speaker"), owner)
    else:
        speaker = speaker_for(row["scope_path"], None, owner)
    # The row gate's request; nothing is retained for replay (the item is stored).
    request = GateRequest(
        context_id, caller, config, "facts" if kind == "turn" else "document", scope, text
    )
    items, verdicts = await commit.gate_rows(services, request, diff)
    write = commit.Write(
        request=request,
        where=WriteScope(context_id, row["scope_path"], row["visibility"], owner),
        items=items,
        verdicts=verdicts,
        meta=reconcile.WriteMeta(item_id, owner, source_kind=kind, speaker=speaker),
        sink=sink,
        action=f"{kind}.reprocess",
        target_kind=kind,
        turn_id=item_id if kind == "turn" else None,
        document_id=item_id if kind == "document" else None,
        extraction=report,
    )
    written = await commit.run(services, write)
    return response(kind, item_id, written.plan.diff, report)


def response(
    kind: str, item_id: uuid.UUID, diff: Mapping[str, Any], report: ExtractionReport
) -> ReprocessResponse:
    """The new extraction, named by the item it belongs to (`turnId` or `documentId`)."""
    chunk_only = extraction_body(item_id, diff, report).chunkOnly
    named = {f"{kind}Id": str(item_id)}
    return ReprocessResponse(
        **named,
        windowsRetried=report.run,
        windowsFailed=len(report.failed),
        extraction=ReprocessExtraction(**named, **diff, chunkOnly=chunk_only),
    )


async def reprocess_turn(
    services: Services, caller: Caller, context_id: uuid.UUID, turn_id: uuid.UUID
) -> ReprocessResponse:
    """POST /turns/{id}/reprocess, the MCP `reprocess` tool and `memwarden reprocess turn`;
    its extraction and row judgement share one request deadline."""
    with request_deadline(services.settings.request_deadline_s):
        return await _reprocess(services, caller, context_id, turn_id)


async def _reprocess(
    services: Services, caller: Caller, context_id: uuid.UUID, turn_id: uuid.UUID
) -> ReprocessResponse:
    async with services.db.connection() as conn:
        row = await store.get_turn(conn, context_id, turn_id)
        if row is not None and row["serving"] == "deleted":
            row = None
        held = row is not None and row["serving"] == "held"
        scope = check_item(caller, context_id, row, held=held)
        assert row is not None
        failed, config = await prepare(conn, context_id, row)
    text: str = row["text"]
    sink = Bookings()
    spans = [(f.start, f.end) for f in failed]  # a turn is one part
    who = from_key(row.get("speaker"), row["owner_subject"])
    result = await extract_turn(services, context_id, text, config, sink, spans, speaker=who)
    report = retried(row["extraction_windows"], failed, {0: result})
    return await write_retried(
        services,
        caller,
        context_id,
        config,
        kind="turn",
        item_id=turn_id,
        row=row,
        scope=scope,
        text=text,
        diff=result.diff,
        report=report,
        sink=sink,
    )
