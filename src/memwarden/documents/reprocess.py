"""Reprocessing a document whose extraction failed, in the request (not on the worker).

As for turns (`pipeline/reprocess.py`): only the failed windows are sent again, cut from
the stored (redacted) parsed text, with the Context's extraction model; the input gate is
not run again; the rows pass the row gate and the write unit. Only a `processed` document
has stored text to reprocess (409 `not_processed` otherwise); one with no failed window is
409 `nothing_to_reprocess`.
"""

from __future__ import annotations

import uuid
from collections import defaultdict

from memwarden.documents.chunking import extraction_parts
from memwarden.documents.processing import extraction_provider
from memwarden.domain.grants import Caller
from memwarden.errors import Conflict, UpstreamError
from memwarden.models.base import ModelTransportError
from memwarden.pipeline.extraction import ExtractionResult, FailedWindow, extract_spans, merge
from memwarden.pipeline.reprocess import check_item, prepare, retried, write_retried
from memwarden.pipeline.responses import ReprocessResponse
from memwarden.services import Services
from memwarden.store import documents as store
from memwarden.usage import Bookings


async def reprocess_document(
    services: Services, caller: Caller, context_id: uuid.UUID, document_id: uuid.UUID
) -> ReprocessResponse:
    """POST /documents/{id}/reprocess, the MCP `reprocess` tool, `memwarden reprocess`."""
    async with services.db.connection() as conn:
        row = await store.get_for_reprocess(conn, context_id, document_id)
        scope = check_item(caller, context_id, row)
        assert row is not None
        if row["status"] != "processed" or row["parsed_text"] is None:
            raise Conflict(
                f"the document is {row['status']}: only a processed one can be reprocessed",
                code="not_processed",
            )
        failed, config = await prepare(conn, context_id, row)
    text: str = row["parsed_text"]
    parts = extraction_parts(text)
    by_part: dict[int, list[FailedWindow]] = defaultdict(list)
    for window in failed:
        by_part[window.part].append(window)
    provider = extraction_provider(services, config)
    sink = Bookings()
    results: dict[int, ExtractionResult] = {}
    try:
        for part, windows in sorted(by_part.items()):
            source = parts[part] if part < len(parts) else ""
            spans = [(w.start, w.end) for w in windows]
            addendum = config.prompt_addendums.extraction
            results[part] = await extract_spans(source, spans, provider, addendum, sink)
    except ModelTransportError as exc:
        if sink.entries:
            async with services.db.transaction() as conn:
                await sink.write(conn, context_id)
        raise UpstreamError("the extraction model could not be reached") from exc
    report = retried(row["extraction_windows"], failed, results)
    return await write_retried(
        services,
        caller,
        context_id,
        config,
        kind="document",
        item_id=document_id,
        row=row,
        scope=scope,
        text=text,
        diff=merge([r.diff for r in results.values()], dedupe=len(results) > 1),
        report=report,
        sink=sink,
    )
