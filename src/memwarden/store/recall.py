"""Recall reads (SQL in queries/recall.sql): chunks, history, profiles, state, traffic."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pgvector import Vector

from memwarden.domain.scope import Visibility
from memwarden.store.batch import Row, Statement
from memwarden.store.db import Conn
from memwarden.store.rows import fetch_all

MATCH_CAP = 5000
Names = Sequence[str] | None


@dataclass(frozen=True)
class RecordRow:
    """A memory record as recall serves it (recall_record_rows, entities, facts, state)."""

    id: uuid.UUID
    kind: str
    revision: int
    memory_category: str
    body: str
    content: Any  # the stored JSON as it is
    scope_path: str
    visibility: Visibility
    source_kind: str
    source_ref: uuid.UUID | None
    valid_from: datetime
    valid_to: datetime | None
    serving: str
    entity_id: uuid.UUID | None
    object_entity_id: uuid.UUID | None
    attr_key: str | None
    superseded_by: uuid.UUID | None
    created_at: datetime
    derived_from: list[uuid.UUID]
    source_gist: str | None = None  # recall_record_rows: the source document's gist


@dataclass(frozen=True)
class ChunkRow:
    """A turn or document chunk as recall serves it."""

    id: uuid.UUID
    turn_id: uuid.UUID | None
    document_id: uuid.UUID | None
    text: str
    scope_path: str
    visibility: Visibility
    created_at: datetime
    source_gist: str | None = None  # the document's gist (a turn's chunk has none)


@dataclass(frozen=True)
class Reader:
    """Who reads what: the Context, the caller's narrowed read prefixes, its subject."""

    context_id: uuid.UUID
    prefixes: tuple[str, ...]
    subject: str

    def params(self, **more: Any) -> dict[str, Any]:
        return {
            "context_id": self.context_id,
            "prefixes": list(self.prefixes),
            "subject": self.subject,
            **more,
        }


def _filters(kinds: Sequence[str] | None, categories: Sequence[str] | None) -> dict[str, Any]:
    return {
        "kinds": list(kinds) if kinds else None,
        "categories": list(categories) if categories else None,
    }


def chunks_lexical(who: Reader, query: str, limit: int) -> Statement:
    return "recall_chunks_lexical", who.params(query=query, limit=limit, match_cap=MATCH_CAP)


def chunks_vector(who: Reader, vector: Sequence[float], limit: int, *, indexed: bool) -> Statement:
    """The walk of the Context's chunk index when it has one, else the exact scan."""
    name = "recall_chunks_vector" if indexed else "recall_chunks_vector_exact"
    return name, who.params(vector=Vector(list(vector)), limit=limit)


def history_lexical(
    who: Reader, query: str, limit: int, kinds: Names = None, categories: Names = None
) -> Statement:
    filters = _filters(kinds, categories)
    params = who.params(query=query, limit=limit, match_cap=MATCH_CAP, **filters)
    return "recall_history_lexical", params


def history_vector(
    who: Reader,
    vector: Sequence[float],
    limit: int,
    kinds: Names = None,
    categories: Names = None,
) -> Statement:
    params = who.params(vector=Vector(list(vector)), limit=limit, **_filters(kinds, categories))
    return "recall_history_vector", params


def record_rows(
    who: Reader, ids: Sequence[uuid.UUID], history: bool, at: datetime | None = None
) -> Statement:
    """The final hits' rows (run it only with ids); with `at`, as they stood then."""
    if at is not None:
        return "recall_asof_record_rows", who.params(ids=list(ids), history=history, at=at)
    return "recall_record_rows", who.params(ids=list(ids), history=history)


def chunk_rows(who: Reader, ids: Sequence[uuid.UUID], at: datetime | None = None) -> Statement:
    """The final chunk hits' rows (run it only with ids); with `at`, those served then."""
    if at is not None:
        return "recall_asof_chunk_rows", who.params(ids=list(ids), at=at)
    return "recall_chunk_rows", who.params(ids=list(ids))


def asof_lexical(
    who: Reader,
    at: datetime,
    query: str,
    limit: int,
    *,
    history: bool,
    kinds: Names = None,
    categories: Names = None,
) -> Statement:
    """Records matching `query` as they stood at `at`: served then, or (history) superseded
    or invalidated then."""
    filters = _filters(kinds, categories)
    params = who.params(
        at=at, query=query, limit=limit, match_cap=MATCH_CAP, history=history, **filters
    )
    return "recall_asof_lexical", params


def asof_vector(
    who: Reader,
    at: datetime,
    vector: Sequence[float],
    limit: int,
    *,
    history: bool,
    kinds: Names = None,
    categories: Names = None,
) -> Statement:
    """The nearest records as they stood at `at`, by the vector of the revision current then."""
    filters = _filters(kinds, categories)
    params = who.params(at=at, vector=Vector(list(vector)), limit=limit, history=history)
    return "recall_asof_vector", {**params, **filters}


def asof_chunks_lexical(who: Reader, at: datetime, query: str, limit: int) -> Statement:
    params = who.params(at=at, query=query, limit=limit, match_cap=MATCH_CAP)
    return "recall_asof_chunks_lexical", params


def asof_chunks_vector(who: Reader, at: datetime, vector: Sequence[float], limit: int) -> Statement:
    return "recall_asof_chunks_vector", who.params(at=at, vector=Vector(list(vector)), limit=limit)


def candidate_ids(rows: Sequence[Row]) -> list[uuid.UUID]:
    """A candidate statement's ids, best first (its rows come back from a batch)."""
    return [r["id"] for r in rows]


def records_by_id(rows: Sequence[Row]) -> dict[uuid.UUID, RecordRow]:
    """record_rows' rows, typed (they come back from a batch)."""
    return {r["id"]: RecordRow(**r) for r in rows}


def chunks_by_id(rows: Sequence[Row]) -> dict[uuid.UUID, ChunkRow]:
    """chunk_rows' rows, typed (they come back from a batch)."""
    return {r["id"]: ChunkRow(**r) for r in rows}


async def entities(
    conn: Conn,
    who: Reader,
    entity_id: uuid.UUID | None,
    norm_name: str | None,
    names: Sequence[str] = (),
    name_keys: Sequence[str] = (),
    at: datetime | None = None,
) -> list[RecordRow]:
    """By id or normalised name; `names` also find speakers' entities by a name they carry.
    With `at`: the entities served then, by the names they carried then."""
    params = who.params(
        id=entity_id, norm_name=norm_name, names=list(names), name_keys=list(name_keys), at=at
    )
    name = "recall_entities" if at is None else "recall_asof_entities"
    return await fetch_all(conn, name, RecordRow, params)


async def profile_facts(
    conn: Conn,
    who: Reader,
    ids: Sequence[uuid.UUID],
    history: bool,
    limit: int,
    at: datetime | None = None,
) -> list[RecordRow]:
    params = who.params(ids=list(ids), history=history, limit=limit, at=at)
    name = "recall_profile_facts" if at is None else "recall_asof_profile_facts"
    return await fetch_all(conn, name, RecordRow, params)


async def newest(
    conn: Conn, who: Reader, kind: str, limit: int, at: datetime | None = None
) -> list[RecordRow]:
    params = who.params(kind=kind, limit=limit, at=at)
    name = "recall_state" if at is None else "recall_asof_state"
    return await fetch_all(conn, name, RecordRow, params)


def count_recall(context_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[Statement]:
    """The traffic upsert for the records served, one statement whose transaction commits
    asynchronously (none when there is nothing to count)."""
    unique = sorted(set(ids))
    if not unique:
        return []
    return [("recall_count", {"context_id": context_id, "ids": unique})]
