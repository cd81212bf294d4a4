"""A record's history: every revision, why it was made, its validity, who made it and what
replaced the record. One use case for the HTTP route, the MCP `history` tool, the CLI's
`memwarden history` and the dashboard's timeline.

Seeing a history is reading the record: a memory_read grant covering its scope, private
records for their owner only; a record the key may not read is 404, as the record reads
answer. A history carries no content, so it also answers for a record that no longer
serves (superseded, deleted, erased: an erased record's revisions are tombstones). A held
record has never been served: only a reviewer of its scope sees that it exists.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Final

from memwarden.admin.access import require_context, require_key
from memwarden.domain.eligibility import RecordScope, is_visible
from memwarden.domain.grants import Caller
from memwarden.errors import Forbidden, InvalidInput, NotFound
from memwarden.paging import split_page
from memwarden.review.responses import HistoryRevision, RecordHistory
from memwarden.store import record_history as store
from memwarden.store.db import Database

DEFAULT_PAGE: Final = 50
MAX_PAGE: Final = 200
"""Revisions one page may carry (a longer history: follow `next_cursor`)."""


def _at(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _cursor(value: str | None) -> int | None:
    """A page cursor is the last revision shown; a malformed one is a 400."""
    if value is None or value == "":
        return None
    if not value.isdigit() or not 1 <= int(value) <= 2**31 - 1:
        raise InvalidInput("cursor is not a valid page cursor", field="cursor")
    return int(value)


def _may_see(caller: Caller, head: store.HistoryHead) -> bool:
    scope = RecordScope(head.scope_path, head.visibility, head.owner_subject)
    readable = is_visible(
        scope,
        request_path="",
        request_visibility=None,
        read_prefixes=caller.prefixes("memory_read"),
        subject=caller.subject,
    )
    if head.serving == "held":
        return readable and caller.can("memory_review", head.scope_path)
    return readable


def _revision(row: store.HistoryRow) -> HistoryRevision:
    return HistoryRevision(
        revision=row.revision,
        op=row.op,
        cause=row.cause,
        author=row.actor_subject,
        recorded_at=row.created_at.isoformat(),
        until=_at(row.until),
        valid_from=_at(row.valid_from),
        valid_to=_at(row.valid_to),
        replaced_by=str(row.replaced_by) if row.replaced_by else None,
        tombstone=row.content_free,
    )


async def record_history(
    db: Database,
    caller: Caller,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    *,
    cursor: str | None = None,
    limit: int = DEFAULT_PAGE,
) -> RecordHistory:
    """Newest revision first, `limit` (1..MAX_PAGE) per page."""
    require_key(caller)
    require_context(caller, context_id)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    before = _cursor(cursor)
    if not caller.can_any("memory_read"):
        raise Forbidden("needs memory_read", code="missing_grant")
    async with db.connection() as conn:
        head = await store.history_head(conn, context_id, record_id)
        if head is None or not _may_see(caller, head):
            raise NotFound("memory record not found")
        rows = await store.history_page(conn, context_id, record_id, before, limit + 1)
    page, next_cursor = split_page(rows, limit, lambda r: str(r.revision))
    return RecordHistory(
        record_id=str(head.id),
        kind=head.kind,
        serving=head.serving,
        author=head.author_subject,
        speaker=head.speaker,
        source_kind=head.source_kind,
        created_at=head.created_at.isoformat(),
        revisions=[_revision(r) for r in page],
        next_cursor=next_cursor,
    )
