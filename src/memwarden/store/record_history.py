"""A record's revisions, their causes and change events (SQL in queries/record_history.sql)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from memwarden.domain.revision_cause import RevisionCause
from memwarden.domain.scope import Visibility
from memwarden.store.db import Conn
from memwarden.store.rows import fetch_all, fetch_one


@dataclass(frozen=True)
class RevisionRow:
    revision: int
    op: str
    actor_subject: str
    created_at: datetime


@dataclass(frozen=True)
class ChangeRow:
    seq: int
    revision: int | None
    kind: str
    entry_type: str
    created_at: datetime


async def revisions(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, limit: int
) -> list[RevisionRow]:
    params = {"context_id": context_id, "record_id": record_id, "limit": limit}
    return await fetch_all(conn, "record_revisions", RevisionRow, params)


async def change_events(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, limit: int
) -> list[ChangeRow]:
    params = {"context_id": context_id, "record_id": record_id, "limit": limit}
    return await fetch_all(conn, "record_change_events", ChangeRow, params)


@dataclass(frozen=True)
class HistoryHead:
    """The record a history is about: where it lives and whose it is (for the grant
    check), its author and speaker, and its present validity; no content."""

    id: uuid.UUID
    kind: str
    scope_path: str
    visibility: Visibility
    owner_subject: str
    serving: str
    author_subject: str
    source_kind: str
    speaker: str | None
    valid_from: datetime
    valid_to: datetime | None
    superseded_by: uuid.UUID | None
    created_at: datetime
    revision: int


@dataclass(frozen=True)
class HistoryRow:
    revision: int
    op: str
    cause: RevisionCause
    actor_subject: str
    created_at: datetime
    until: datetime | None
    valid_from: datetime | None
    valid_to: datetime | None
    replaced_by: uuid.UUID | None
    content_free: bool


async def history_head(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID
) -> HistoryHead | None:
    params = {"context_id": context_id, "record_id": record_id}
    return await fetch_one(conn, "record_history_head", HistoryHead, params)


async def history_page(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, before: int | None, limit: int
) -> list[HistoryRow]:
    """Newest first, revisions below `before`; `limit` rows at most."""
    params = {"context_id": context_id, "record_id": record_id, "before": before, "limit": limit}
    return await fetch_all(conn, "record_history_page", HistoryRow, params)
