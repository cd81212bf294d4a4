"""Export and import as the service tier calls them: the stream the route sends, the
import the route queues, and its job run as the worker runs it."""

from __future__ import annotations

import json
import uuid
from typing import Any

from memwarden.portability import export, run
from memwarden.portability.service import (
    ExportRequest,
    ImportRequest,
    export_filter,
    get_import,
    request_import,
)
from tests.support.services import ContextKey, ServiceHarness, as_json


def export_text(h: ServiceHarness, key: ContextKey, **request: Any) -> str:
    """GET /export's body."""
    req = ExportRequest(**request)
    f = export_filter(key.caller, key.id, req)

    async def collect() -> str:
        return "".join([line async for line in export.stream(h.services, f, req)])

    return h.run(collect())


def export_lines(h: ServiceHarness, key: ContextKey, **request: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in export_text(h, key, **request).splitlines()]


def start_import(
    h: ServiceHarness, key: ContextKey, body: str | bytes, source_dir: str = "/src/p", **kw: Any
) -> uuid.UUID:
    data = body.encode() if isinstance(body, str) else body
    started = h.run(
        request_import(h.services, key.caller, key.id, ImportRequest(data, source_dir, **kw))
    )
    return uuid.UUID(started.importId)


def import_status(h: ServiceHarness, key: ContextKey, import_id: uuid.UUID) -> dict[str, Any]:
    return as_json(h.run(get_import(h.services, key.caller, key.id, import_id)))


def import_file(
    h: ServiceHarness, key: ContextKey, body: str | bytes, source_dir: str = "/src/p", **kw: Any
) -> dict[str, Any]:
    """POST /imports's use case, then the job as the worker runs it; the import as GET
    shows it."""
    import_id = start_import(h, key, body, source_dir, **kw)
    assert h.run(run.execute(h.services, key.id, import_id)) == "done"
    return import_status(h, key, import_id)


def jsonl(*values: Any) -> str:
    return "".join(json.dumps(v) + "\n" for v in values)
