"""Candidate sets for memory search (SQL in queries/search.sql).

Each function returns (id, score) rows, best first, already restricted to servable records
inside the given read prefixes, visible to `subject`.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pgvector import Vector

from memwarden.store.batch import Statement
from memwarden.store.db import Conn
from memwarden.store.queries import q

LEXICAL_MATCH_CAP = 5000


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


def vector_statement(where: SearchFilter, values: Sequence[float], limit: int) -> Statement:
    return "search_vector", {**where.params(), "vector": Vector(list(values)), "limit": limit}


async def lexical(conn: Conn, where: SearchFilter, query: str, limit: int) -> list[dict]:
    name, params = lexical_statement(where, query, limit)
    cur = await conn.execute(q(name), params)
    return await cur.fetchall()


async def vector(
    conn: Conn, where: SearchFilter, values: Sequence[float], limit: int
) -> list[dict]:
    name, params = vector_statement(where, values, limit)
    cur = await conn.execute(q(name), params)
    return await cur.fetchall()


async def newest(conn: Conn, where: SearchFilter, limit: int) -> list[dict]:
    cur = await conn.execute(q("search_filter"), {**where.params(), "limit": limit})
    return await cur.fetchall()


async def fetch(conn: Conn, where: SearchFilter, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict]:
    cur = await conn.execute(q("fetch_search_hits"), {**where.params(), "ids": list(ids)})
    return {row["id"]: row for row in await cur.fetchall()}
