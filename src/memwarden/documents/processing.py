"""Processing one uploaded document on a worker: parse → redact → input gate → chunk →
extract → row gate → reconcile, with a status a user can follow.

Parsing, redaction and chunking run in a parser child process (documents/parse.py).
Every terminal outcome is a status with a failure code (`parse_error`,
`document_too_large`, `parse_timeout`, `parse_failed`,
`config_unreadable`, `judge_fail` with reasons, `judge_unavailable`,
`token_budget_exhausted`, `model_provider_error`, `request_denied`). A deny keeps only
the failed status with the fixed code: no text, no reasons, no original, no audit.
Model calls never run inside a transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from functools import partial
from typing import Any

import structlog

from memwarden import budget
from memwarden.admin.settings_service import read_config
from memwarden.config import ContextConfig
from memwarden.documents import service
from memwarden.documents.chunking import extraction_parts
from memwarden.documents.formats import CONTENT_TYPES, Format
from memwarden.documents.parse import ParseError, parse_within
from memwarden.documents.prepare import prepare_within
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.scope import Scope
from memwarden.domain.speaker import speaker_for
from memwarden.embedding import Vector, billed
from memwarden.errors import (
    AppError,
    BudgetExhausted,
    JudgeDenied,
    JudgeRefused,
    JudgeUnavailable,
)
from memwarden.gatekeeper import GateRequest
from memwarden.models.base import JsonProvider, ModelTransportError
from memwarden.pipeline import commit, reconcile
from memwarden.pipeline.extraction import ExtractionReport, ExtractionResult, extract, merge
from memwarden.services import Services
from memwarden.store import documents as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)
_FORMATS: dict[str, Format] = {v: k for k, v in CONTENT_TYPES.items()}
BUDGET_SPENT = "token_budget_exhausted"


class DocumentFailed(Exception):
    def __init__(self, code: str, reasons: tuple[str, ...] = ()) -> None:
        super().__init__(code)
        self.code = code
        self.reasons = reasons


async def process_document(
    services: Services, context_id: uuid.UUID, document_id: uuid.UUID
) -> str:
    """Returns the final status; a document not pending (or gone) is left alone."""
    async with services.db.transaction() as conn:
        row = await store.get(conn, context_id, document_id, for_update=True)
        if row is None or row["status"] != "pending":
            return row["status"] if row else "missing"
        await store.set_status(conn, context_id, document_id, "processing")
    files = service.file_store(services)
    try:
        await _process(services, context_id, row, files.read(row["storage_path"]))
    except JudgeDenied:
        async with services.db.transaction() as conn:
            await store.fail_forgetting(conn, context_id, document_id, "request_denied")
        files.delete(row["storage_path"])
        return "failed"
    except (DocumentFailed, BudgetExhausted) as error:
        # A budget spent before any later call (a window, the row judge, the embedder).
        failed = error if isinstance(error, DocumentFailed) else DocumentFailed(BUDGET_SPENT)
        async with services.db.transaction() as conn:
            await store.set_status(
                conn, context_id, document_id, "failed", failed.code, failed.reasons
            )
        log.info("document_failed", document_id=str(document_id), code=failed.code)
        return "failed"
    except Exception as exc:
        # Never leave a document "processing" forever; the job's own failure is kept too.
        async with services.db.transaction() as conn:
            await store.set_status(conn, context_id, document_id, "failed", "internal_error")
        log.error("document_error", document_id=str(document_id), error=type(exc).__name__)
        raise
    files.delete(row["storage_path"])
    return "processed"


def _owner(context_id: uuid.UUID, row: dict[str, Any]) -> Caller:
    """The uploader as the gates see it (for the review log); grants were checked at upload."""
    return Caller(context_id, row["principal_id"], row["owner_subject"], None, {})


async def _process(
    services: Services, context_id: uuid.UUID, row: dict[str, Any], data: bytes
) -> None:
    try:
        text = await parse_within(services.parsers, _FORMATS.get(row["content_type"], "txt"), data)
    except ParseError as failed:
        raise DocumentFailed(failed.code) from None
    async with services.db.connection() as conn:
        try:
            config = await read_config(conn, context_id)
            await budget.check_budget(conn, context_id, config.token_budget)
        except BudgetExhausted:
            raise DocumentFailed(BUDGET_SPENT) from None
        except AppError as exc:
            raise DocumentFailed(exc.code) from None
    try:
        prepared = await prepare_within(services.parsers, text, config.pii_redaction_enabled)
    except ParseError as failed:
        raise DocumentFailed(failed.code) from None
    text, chunks = prepared.text, prepared.chunks
    scope = Scope(row["scope_path"], row["visibility"])
    caller = _owner(context_id, row)
    request = GateRequest(
        context_id, caller, config, "document", scope, text, document_id=row["id"]
    )
    try:
        verdict = await services.gatekeeper.input_gate(request)
    except JudgeRefused as refused:
        raise DocumentFailed("judge_fail", tuple(refused.extra.get("reasons", ()))) from None
    except JudgeUnavailable:
        raise DocumentFailed("judge_unavailable") from None
    sink = Bookings()
    results = await _extract(services, context_id, text, config, sink)
    diff = merge([r.diff for r in results], dedupe=len(results) > 1)
    try:
        items, verdicts = await commit.gate_rows(services, request, diff)
    except JudgeUnavailable:  # a row-gate failure under on_error=fail: the document's own code
        raise DocumentFailed("judge_unavailable") from None
    write = commit.Write(
        request=request,
        where=WriteScope(context_id, row["scope_path"], row["visibility"], row["owner_subject"]),
        items=items + prepared.scan,
        verdicts=verdicts,
        meta=reconcile.WriteMeta(
            row["id"],
            row["owner_subject"],
            source_kind="document",
            # First person in a document is its uploader's (the end user its scope names).
            speaker=speaker_for(row["scope_path"], None, row["owner_subject"]),
        ),
        sink=sink,
        action="document.processed",
        target_kind="document",
        input=verdict,
        document_id=row["id"],
        extraction=ExtractionReport.of(results),
    )

    async def document_chunks(
        conn: Conn, _hold: uuid.UUID | None, vectors: Mapping[str, Vector]
    ) -> None:
        for n, text_chunk in enumerate(chunks):
            await store.insert_chunk(
                conn,
                vectors.get(text_chunk),
                context_id=context_id,
                id=new_id(),
                document_id=row["id"],
                ordinal=n,
                text=text_chunk,
                scope_path=row["scope_path"],
                visibility=row["visibility"],
                owner_subject=row["owner_subject"],
            )

    async def finish(conn: Conn) -> None:
        await store.finish(conn, context_id, row["id"], text)

    if billed(services):  # a remote embedder spends the Context's tokens too
        await budget.check_before_call(services.db, context_id, config.token_budget)
    await commit.run(services, write, texts=chunks, source_rows=document_chunks, finish=finish)


def extraction_provider(services: Services, config: ContextConfig) -> JsonProvider:
    """Documents are extracted with the Context's extraction model (spec 4)."""
    choice = config.models.extraction
    return services.models.extraction_provider(
        f"{choice.provider}:{choice.model}" if choice else None
    )


async def _extract(
    services: Services, context_id: uuid.UUID, text: str, config: ContextConfig, sink: Bookings
) -> list[ExtractionResult]:
    """The Context's extraction model, part by part (each part at most 10 windows), the
    budget checked before each window. The windows' tokens are booked when extraction ends,
    however it ends: they were spent, and the later calls' budget checks count them."""
    provider = extraction_provider(services, config)
    check = partial(budget.check_before_call, services.db, context_id, config.token_budget, sink)
    results: list[ExtractionResult] = []
    try:
        for part in extraction_parts(text):
            addendum = config.prompt_addendums.extraction
            results.append(await extract(part, provider, addendum, sink, before_call=check))
    except ModelTransportError:
        raise DocumentFailed("model_provider_error") from None
    except BudgetExhausted:
        raise DocumentFailed(BUDGET_SPENT) from None
    finally:
        await sink.flush(services.db, context_id)
    return results
