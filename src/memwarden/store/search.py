"""Candidate sets for memory search (SQL in queries/search.sql).

Each function returns (id, score) rows, best first, already restricted to servable records
inside the given read prefixes, visible to `subject`.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pgvector import Vector

from memwarden.domain.scope import Visibility
from memwarden.store.batch import Statement
from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all

LEXICAL_MATCH_CAP = 5000


@dataclass(frozen=True)
class Scored:
    """A ranked candidate: its id and lexical or vector score."""

    id: uuid.UUID
    score: float


@dataclass(frozen=True)
class Listed:
    """A candidate of the newest-first listing: no score."""

    id: uuid.UUID
    score: float | None


@dataclass(frozen=True)
class ServedRecord:
    """A servable record as the review API shows it, with its current receipt (if any)."""

    id: uuid.UUID
    revision: int
    kind: str
    memory_category: str
    content: Any  # the stored JSON as it is
    body: str
    scope_path: str
    visibility: Visibility
    owner_subject: str
    author_subject: str
    expires_at: datetime | None
    created_at: datetime
    modified_at: datetime
    review_revision: int | None
    review_receipt_id: uuid.UUID | None
    source_kind: str
    derived_from: list[uuid.UUID]
    receipt_disposition: str | None
    receipt_reviewer: str | None
    receipt_decided_at: datetime | None
    receipt_revision: int | None


@dataclass(frozen=True)
class SearchFilter:
    """Who is asking and over what: the same for every candidate query."""

    context_id: uuid.UUID
    prefixes: tuple[str, ...]
    subject: str
    visibility: str | None = None
    kinds: tuple[str, ...] | None = None
    categories: tuple[str, ...] | None = None

    def params(self) -> dict[str, Any]:
        return {
            "context_id": self.context_id,
            "prefixes": list(self.prefixes),
            "subject": self.subject,
            "visibility": self.visibility,
            "kinds": list(self.kinds) if self.kinds is not None else None,
            "categories": list(self.categories) if self.categories is not None else None,
        }


async def begin_snapshot(conn: Conn) -> None:
    """Call first inside a transaction: one read-only snapshot for the whole search."""
    await conn.execute(q("search_snapshot"))


def lexical_statement(where: SearchFilter, query: str, limit: int) -> Statement:
    params = {**where.params(), "query": query, "limit": limit, "match_cap": LEXICAL_MATCH_CAP}
    return "search_lexical", params


def vector_statement(
    where: SearchFilter, values: Sequence[float], limit: int, *, indexed: bool
) -> Statement:
    """The index walk for a Context with its own index, else the (prepared) exact scan."""
    name = "search_vector" if indexed else "search_vector_exact"
    return name, {**where.params(), "vector": Vector(list(values)), "limit": limit}


async def lexical(conn: Conn, where: SearchFilter, query: str, limit: int) -> list[Scored]:
    _, params = lexical_statement(where, query, limit)
    return await fetch_all(conn, "search_lexical", Scored, params)


async def vector(
    conn: Conn,
    where: SearchFilter,
    values: Sequence[float],
    limit: int,
    *,
    indexed: bool,
    depth: Statement | None = None,
) -> list[Scored]:
    """The vector candidates; `depth` (vector_index.walk_depth) is set first when given."""
    if depth is not None:
        await conn.execute(q(depth[0]), depth[1])
    name, params = vector_statement(where, values, limit, indexed=indexed)
    return await fetch_all(conn, name, Scored, params)


async def newest(conn: Conn, where: SearchFilter, limit: int) -> list[Listed]:
    return await fetch_all(conn, "search_filter", Listed, {**where.params(), "limit": limit})


async def fetch(
    conn: Conn, where: SearchFilter, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, ServedRecord]:
    params = {**where.params(), "ids": list(ids)}
    return {row.id: row for row in await fetch_all(conn, "fetch_search_hits", ServedRecord, params)}
