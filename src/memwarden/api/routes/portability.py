"""Export and import routes: stream a Context's memories out as JSON Lines; take a file in
as an import job (202 with its id) and read where it stands."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse

from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.domain.scope import MAX_PATH_CHARS, Visibility
from memwarden.portability import export, formats
from memwarden.portability.responses import ImportJob, ImportStarted
from memwarden.portability.service import (
    MAX_SOURCE_DIR,
    ExportRequest,
    ImportRequest,
    audit_export,
    export_filter,
    get_import,
    request_import,
)
from memwarden.services import Services
from memwarden.text import StorableText

router = APIRouter(tags=["portability"], route_class=AnswerRoute)

NDJSON = "application/x-ndjson"
MAX_SCOPES = 16
"""Scope prefixes one export may name (records at or below any of them)."""
EXPORT_ANSWER = (
    "JSON Lines: a `header` line (format `memwarden-export`, version 1), then one object "
    "per line with a `kind` (record, link, session, turn, principal, judgement), then an "
    "`end` line with the counts (docs/portability.md)."
)
EXPORT_CONTENT = {
    "schema": {"type": "string", "description": "One JSON object per line."},
    "itemSchema": {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {
                "enum": [
                    "header",
                    "record",
                    "link",
                    "session",
                    "turn",
                    "principal",
                    "judgement",
                    "end",
                ]
            }
        },
    },
}
IMPORT_BODY = {
    "required": True,
    "description": "The file: a memwarden export, a mem0 export (get_all's JSON or one "
    "memory per line) or JSON Lines of texts.",
    "content": {
        NDJSON: {"schema": {"type": "string"}},
        "application/json": {"schema": {"type": "string"}},
    },
}


@router.get(
    "/api/v1/{context_id}/export",
    response_model=None,
    response_class=StreamingResponse,
    responses={200: {"description": EXPORT_ANSWER, "content": {NDJSON: EXPORT_CONTENT}}},
)
async def export_route(
    context_id: uuid.UUID,
    subject: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    scope: Annotated[list[StorableText] | None, Query(max_length=MAX_SCOPES)] = None,
    sessions: bool = False,
    include: Annotated[list[Literal["keys", "judgements"]] | None, Query()] = None,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> StreamingResponse:
    """A Context's memories as JSON Lines: records with every revision, validity,
    provenance, review state and receipts, links; sessions and turns with `sessions=true`.
    Only what the key may read, unless it holds grant:manage over the whole Context."""
    request = ExportRequest(
        subject, tuple(scope or ()), sessions, tuple(dict.fromkeys(include or ()))
    )
    f = export_filter(who, context_id, request)
    await audit_export(svc, who, context_id)
    return StreamingResponse(
        export.stream(svc, f, request), media_type=NDJSON, headers={"Cache-Control": "no-store"}
    )


@router.post(
    "/api/v1/{context_id}/imports",
    status_code=202,
    openapi_extra={"requestBody": IMPORT_BODY},
)
async def import_route(
    context_id: uuid.UUID,
    request: Request,
    source_dir: Annotated[str, Query(min_length=1, max_length=MAX_SOURCE_DIR)],
    format: Literal["auto", "memwarden", "mem0", "texts"] = "auto",
    scope: Annotated[str | None, Query(max_length=MAX_PATH_CHARS)] = None,
    visibility: Visibility = "shared",
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ImportStarted:
    """Import a file as a job: every item passes the judge's gates and reconciliation,
    keeps `source_kind: import`, its original times and `source_dir`. Poll
    GET /imports/{import_id}."""
    body = await request.body()
    fmt: formats.Format | Literal["auto"] = format
    started = ImportRequest(body, source_dir, fmt, scope, visibility)
    return await request_import(svc, who, context_id, started)


@router.get("/api/v1/{context_id}/imports/{import_id}")
async def import_status(
    context_id: uuid.UUID,
    import_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ImportJob:
    return await get_import(svc, who, context_id, import_id)
