"""Who may read what, for /query, /profile and /state, and how a record is rendered."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memwarden.admin.access import require_context, require_key
from memwarden.domain.eligibility import effective_prefixes
from memwarden.domain.grants import Caller
from memwarden.domain.scope import ScopeError, normalise_path
from memwarden.errors import Forbidden, InvalidInput
from memwarden.retrieval.responses import HitScope, HitSource, MemoryHit
from memwarden.store.recall import ChunkRow, Reader, RecordRow


def reader_for(caller: Caller, context_id: uuid.UUID, scope: Sequence[str] | None) -> Reader:
    """memory_read prefixes narrowed to the requested scope prefixes; 403 when none remain."""
    require_key(caller)
    require_context(caller, context_id)
    if not caller.can_any("memory_read"):
        raise Forbidden("needs memory_read", code="missing_grant")
    try:
        paths = [normalise_path(p) for p in scope] if scope else [""]
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    grants = caller.prefixes("memory_read")
    prefixes = sorted({p for path in paths for p in effective_prefixes(path, grants)})
    if not prefixes:
        raise Forbidden("no memory_read grant covers this scope", code="missing_grant")
    return Reader(context_id, tuple(prefixes), caller.subject)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def render_record(row: RecordRow, score: float | None = None) -> MemoryHit:
    """A memory record as a hit: content, scope, provenance, revision, validity."""
    source: dict[str, Any] = {
        "kind": row.source_kind,
        "ref": str(row.source_ref) if row.source_ref else None,
    }
    if row.source_gist:  # extracted from a document: cite it by its gist
        source["gist"] = row.source_gist
    out = MemoryHit(
        id=str(row.id),
        kind=row.kind,
        text=row.body,
        score=score,
        memoryCategory=row.memory_category,
        scope=HitScope(path=row.scope_path, visibility=row.visibility),
        source=HitSource(**source),
        revision=row.revision,
        content=row.content,
        validFrom=_iso(row.valid_from),
    )
    if row.derived_from:  # a derived record: what it was made from, and by which pass
        out.derivedFrom = [str(d) for d in row.derived_from]
        out.derivedBy = row.source_kind
    if row.serving != "live":
        out.validTo = _iso(row.valid_to)
        out.superseded = True
        out.supersededBy = str(row.superseded_by) if row.superseded_by else None
    return out


def render_chunk(row: ChunkRow, score: float | None) -> MemoryHit:
    source = ("turn", row.turn_id) if row.turn_id else ("document", row.document_id)
    cited: dict[str, Any] = {"kind": source[0], "ref": str(source[1])}
    if row.source_gist:  # a document's chunk: cite the document by its gist
        cited["gist"] = row.source_gist
    return MemoryHit(
        id=str(row.id),
        kind="chunk",
        text=row.text,
        score=score,
        memoryCategory=None,
        scope=HitScope(path=row.scope_path, visibility=row.visibility),
        source=HitSource(**cited),
        revision=None,
    )
