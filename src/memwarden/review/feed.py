"""The change feed: what changed in the caller's Context, in commit order, ids only.

A client follows it with `cursor` (the last `seq` it processed, as a string) to invalidate
caches; entries never carry content, and a key sees only changes to records its read (or
review) grants cover, private records only when they are its subject's.
"""

from __future__ import annotations

from typing import Any

from memwarden.admin.access import require_key
from memwarden.domain.grants import Caller
from memwarden.errors import Forbidden, InvalidInput
from memwarden.paging import split_page
from memwarden.review.responses import ChangeEntry, ChangePage
from memwarden.store import audit as store
from memwarden.store.db import Database

MAX_PAGE = 1000


def parse_cursor(cursor: str | None) -> int:
    """The feed's cursor is a sequence number; absent means from the start."""
    if cursor is None or cursor == "":
        return 0
    if not cursor.isdigit() or len(cursor) > 19:
        raise InvalidInput("cursor is not a valid page cursor", field="cursor")
    return int(cursor)


def visible_prefixes(caller: Caller) -> tuple[str, ...]:
    """The scopes whose changes a key may follow: its memory_read and memory_review grants
    (a reviewer reads state and receipts of what it may review)."""
    both = set(caller.prefixes("memory_read")) | set(caller.prefixes("memory_review"))
    return tuple(sorted(both))


def _entry(row: dict[str, Any]) -> ChangeEntry:
    return ChangeEntry(
        seq=row["seq"],
        record_id=str(row["record_id"]) if row["record_id"] else None,
        revision=row["revision"],
        kind=row["kind"],
        entry_type=row["entry_type"],
        at=row["created_at"].isoformat(),
    )


async def list_changes(
    db: Database, caller: Caller, *, cursor: str | None = None, limit: int = 100
) -> ChangePage:
    """Entries after `cursor`, oldest first; the tenant is the key's, never a parameter."""
    context_id = require_key(caller)
    if not (caller.can_any("memory_read") or caller.can_any("memory_review")):
        raise Forbidden("needs memory_read or memory_review", code="missing_grant")
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    after = parse_cursor(cursor)
    async with db.connection() as conn:
        rows = await store.list_changes(
            conn,
            context_id,
            after,
            limit + 1,
            prefixes=visible_prefixes(caller),
            subject=caller.subject,
        )
    page, next_cursor = split_page(rows, limit, lambda r: str(r["seq"]))
    return ChangePage(changes=[_entry(r) for r in page], next_cursor=next_cursor)
