"""Hybrid search over memory records: full-text, exact vector scan, reciprocal-rank fusion.

`search_memory` is the one entry point; `/api/v1/memory/search` uses it and the query path
can too. Eligibility and access are applied inside every candidate query, before ranking.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from memwarden.retrieval.vector_plan import plan_for
from memwarden.store import search as store
from memwarden.store import vector_index
from memwarden.store.db import Conn
from memwarden.store.search import SearchFilter, ServedRecord

RRF_K = 60
Mode = Literal["lexical", "vector", "hybrid", "filter"]


@dataclass(frozen=True)
class Hit:
    record_id: uuid.UUID
    score: float | None
    lexical_rank: int | None
    vector_rank: int | None
    record: ServedRecord


@dataclass(frozen=True)
class SearchResult:
    mode: Mode
    hits: list[Hit]


def fuse(rankings: Iterable[Sequence[uuid.UUID]], k: int = RRF_K) -> list[tuple[uuid.UUID, float]]:
    """Reciprocal-rank fusion: sum of 1 / (k + rank) over the lists (rank from 1).

    Ties keep the order of first appearance, so the result is deterministic.
    """
    scores: dict[uuid.UUID, float] = {}
    for ranking in rankings:
        for rank, record_id in enumerate(ranking, start=1):
            scores[record_id] = scores.get(record_id, 0.0) + 1.0 / (k + rank)
    order = {rid: i for i, rid in enumerate(scores)}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))


def candidate_count(limit: int) -> int:
    return min(max(limit * 4, 50), 400)


async def search_memory(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    prefixes: Sequence[str],
    subject: str,
    query: str | None = None,
    vector: Sequence[float] | None = None,
    kinds: Sequence[str] | None = None,
    categories: Sequence[str] | None = None,
    visibility: str | None = None,
    limit: int = 10,
) -> SearchResult:
    """Ranked, servable records inside `prefixes` that `subject` may see.

    Text alone ranks by ts_rank; a vector alone by cosine similarity over embeddings of
    current revisions; both fuse by reciprocal rank; neither lists the newest records.
    """
    where = SearchFilter(
        context_id=context_id,
        prefixes=tuple(prefixes),
        subject=subject,
        visibility=visibility,
        kinds=tuple(kinds) if kinds else None,
        categories=tuple(categories) if categories else None,
    )
    if not where.prefixes:
        return SearchResult("filter", [])
    text = (query or "").strip()
    if not text and vector is None:
        rows = await store.newest(conn, where, limit)
        return await _hits(conn, where, "filter", [(r.id, None) for r in rows], {}, {})
    pool = candidate_count(limit)
    lexical = await store.lexical(conn, where, text, pool) if text else []
    dense: list[store.Scored] = []
    if vector is not None:
        ann = plan_for(await vector_index.profile(conn, context_id))
        dense = await store.vector(
            conn, where, vector, pool, indexed=ann.records_indexed, depth=ann.depth
        )
    lex_rank = {r.id: i for i, r in enumerate(lexical, start=1)}
    vec_rank = {r.id: i for i, r in enumerate(dense, start=1)}
    if text and vector is not None:
        mode: Mode = "hybrid"
        ranked = fuse([[r.id for r in lexical], [r.id for r in dense]])
    elif text:
        mode = "lexical"
        ranked = [(r.id, float(r.score)) for r in lexical]
    else:
        mode = "vector"
        ranked = [(r.id, float(r.score)) for r in dense]
    return await _hits(conn, where, mode, ranked[:limit], lex_rank, vec_rank)


async def _hits(
    conn: Conn,
    where: SearchFilter,
    mode: Mode,
    ranked: Sequence[tuple[uuid.UUID, float | None]],
    lex_rank: dict[uuid.UUID, int],
    vec_rank: dict[uuid.UUID, int],
) -> SearchResult:
    records = await store.fetch(conn, where, [rid for rid, _ in ranked]) if ranked else {}
    hits = [
        Hit(rid, score, lex_rank.get(rid), vec_rank.get(rid), records[rid])
        for rid, score in ranked
        if rid in records
    ]
    return SearchResult(mode, hits)
