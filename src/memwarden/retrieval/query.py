"""/query: hybrid recall over memory records and turn chunks, fused by weighted rank.

Memory records come from `store.search` (the candidate queries behind `search_memory`, with
the shared serving gate inside them); chunks, and superseded records when asked for, from
`store.recall`. Each source contributes a full-text and a vector ranking, and the chunks a
full-text window ranking too (store/windows.py: a chunk with the one before it in its
session; a Context without a chunk index scans its chunks' vectors by window as well);
the five (or seven) rankings fuse by weighted reciprocal rank (retrieval/fusion.py). Statements go
out pipelined (`store.batch`): the candidate queries in one round trip (two when the query
is still embedding), then the winners' rows and the traffic upsert in one more. Query
words are OR-ed, so a question matches text that holds only some of its words: recall over
conversation needs that, and ranking sorts it out.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from memwarden.domain.grants import Caller
from memwarden.embedding import embed_texts
from memwarden.errors import InvalidInput
from memwarden.retrieval import traffic
from memwarden.retrieval.as_of import parse_moment
from memwarden.retrieval.fusion import Listed, fuse_lists
from memwarden.retrieval.reader import reader_for, render_chunk, render_record
from memwarden.retrieval.rerank_stage import rerank_fused
from memwarden.retrieval.responses import QueryResponse
from memwarden.retrieval.search import RRF_K, candidate_count
from memwarden.retrieval.speakers import prefer_named_speakers
from memwarden.retrieval.vector_plan import VectorPlan, vector_plan
from memwarden.services import Services
from memwarden.store import recall as store
from memwarden.store import search as memory_search
from memwarden.store import windows
from memwarden.store.batch import Statement, run_all
from memwarden.store.db import Conn
from memwarden.store.recall import ChunkRow, Reader, RecordRow
from memwarden.store.search import SearchFilter
from memwarden.text import require_storable
from memwarden.usage import Bookings

Mode = Literal["hybrid", "lexical", "vector"]
EXACT = VectorPlan(False, False, None, None)  # as_of: no index walk
MAX_QUERY_WORDS = 32
_OPERATORS = {"or", "and", "not"}


@dataclass(frozen=True)
class QueryInput:
    query: str
    limit: int = 10
    scope: Sequence[str] | None = None
    categories: Sequence[str] | None = None
    kinds: Sequence[str] | None = None
    include_superseded: bool = False
    mode: Mode = "hybrid"
    vector: Sequence[float] | None = None  # the query's embedding, when the caller has it
    as_of: datetime | str | None = None  # what would have been served then (as_of.py)


def or_query(text: str) -> str:
    """The query's words joined with `or` for websearch_to_tsquery (stop words drop there)."""
    words = [w for w in re.findall(r"\w+", text.casefold()) if w not in _OPERATORS]
    return " or ".join(list(dict.fromkeys(words))[:MAX_QUERY_WORDS])


def fuse_ranks(lists: Sequence[Sequence[tuple[uuid.UUID, int]]]) -> list[tuple[uuid.UUID, float]]:
    """RRF over (id, rank) lists: ranks are each candidate's place in its own full list."""
    scores: dict[uuid.UUID, float] = {}
    for ranked in lists:
        for item_id, rank in ranked:
            scores[item_id] = scores.get(item_id, 0.0) + 1.0 / (RRF_K + rank)
    order = {item_id: n for n, item_id in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))


def _ranked(ids: Sequence[uuid.UUID]) -> list[tuple[uuid.UUID, int]]:
    return [(i, n) for n, i in enumerate(ids, start=1)]


Ranking = list[tuple[uuid.UUID, int]]  # (id, rank) lists for fuse_ranks


@dataclass(frozen=True)
class QueryPlan:
    """What one query searches: memory kinds (None: all), chunks or not, how deep."""

    memory: SearchFilter | None
    chunks: bool
    pool: int
    history: bool
    kinds: list[str] | None
    categories: Sequence[str] | None
    at: datetime | None = None  # a read as of this moment (exact scans of past states)


def query_plan(who: Reader, req: QueryInput, at: datetime | None = None) -> QueryPlan:
    kinds = [k for k in req.kinds or () if k != "chunk"] or None
    memory = None
    if not req.kinds or kinds:
        categories = tuple(req.categories) if req.categories else None
        memory = SearchFilter(
            who.context_id,
            who.prefixes,
            who.subject,
            None,
            tuple(kinds) if kinds else None,
            categories,
        )
    chunks = (not req.kinds or "chunk" in req.kinds) and not req.categories
    return QueryPlan(
        memory,
        chunks,
        candidate_count(req.limit),
        req.include_superseded,
        kinds,
        req.categories,
        at,
    )


# (lists chunks, statement), in fusion order; None instead of a bool marks a setting for
# the statements after it (a walk depth), whose rows are dropped.
Candidates = list[tuple[bool | None, Statement]]


def lexical_candidates(who: Reader, p: QueryPlan, text: str, *, windows_too: bool) -> Candidates:
    """`windows_too`: the Context's chunks are scanned exactly (no chunk index), so the
    full-text window list, which reads every chunk of the threads holding a match, is
    bounded by the index threshold; a Context large enough for its own chunk index keeps
    the chunks' own list only, as its vector list does (dense_candidates)."""
    if p.at is not None:
        return asof_lexical_candidates(who, p, p.at, text)
    out: Candidates = []
    if p.memory is not None:
        out.append((False, memory_search.lexical_statement(p.memory, text, p.pool)))
        if p.history:
            out.append((False, store.history_lexical(who, text, p.pool, p.kinds, p.categories)))
    if p.chunks:
        out.append((True, store.chunks_lexical(who, text, p.pool)))
        if windows_too:
            out.append((True, windows.chunks_lexical_window(who, text, p.pool)))
    return out


def dense_candidates(who: Reader, p: QueryPlan, vector: list[float], ann: VectorPlan) -> Candidates:
    """The vector lists; each index walk is preceded by the depth its own index needs (a
    small chunk index walked at a large record index's depth is read whole instead), unless
    the walk before it in the same round trip set that depth already."""
    if p.at is not None:
        return asof_dense_candidates(who, p, p.at, vector)
    out: Candidates = []
    if p.memory is not None:
        if ann.depth is not None:
            out.append((None, ann.depth))
        statement = memory_search.vector_statement(
            p.memory, vector, p.pool, indexed=ann.records_indexed
        )
        out.append((False, statement))
        if p.history:
            out.append((False, store.history_vector(who, vector, p.pool, p.kinds, p.categories)))
    if p.chunks:
        set_before = p.memory is not None and ann.depth == ann.chunk_depth
        if ann.chunk_depth is not None and not set_before:
            out.append((None, ann.chunk_depth))
        if ann.chunks_indexed:
            out.append((True, store.chunks_vector(who, vector, p.pool, indexed=True)))
        else:  # an exact scan anyway: each chunk scored with the one before it (fusion.py)
            out.append((True, windows.chunks_vector_window(who, vector, p.pool)))
    return out


def asof_lexical_candidates(who: Reader, p: QueryPlan, at: datetime, text: str) -> Candidates:
    """The same lists as `lexical_candidates`, over the records and chunks as of `at`."""
    out: Candidates = []
    if p.memory is not None:
        for history in (False, True) if p.history else (False,):
            statement = store.asof_lexical(
                who, at, text, p.pool, history=history, kinds=p.kinds, categories=p.categories
            )
            out.append((False, statement))
    if p.chunks:
        out.append((True, store.asof_chunks_lexical(who, at, text, p.pool)))
    return out


def asof_dense_candidates(
    who: Reader, p: QueryPlan, at: datetime, vector: list[float]
) -> Candidates:
    """The vector lists as of `at`: exact scans (no index holds a past state)."""
    out: Candidates = []
    if p.memory is not None:
        for history in (False, True) if p.history else (False,):
            statement = store.asof_vector(
                who, at, vector, p.pool, history=history, kinds=p.kinds, categories=p.categories
            )
            out.append((False, statement))
    if p.chunks:
        out.append((True, store.asof_chunks_vector(who, at, vector, p.pool)))
    return out


async def _rank(
    conn: Conn, candidates: Candidates, chunk_ids: set[uuid.UUID], dense_from: int
) -> list[Listed]:
    """Run the candidate queries in one round trip; note which ids are chunks. Statements
    from `dense_from` on are the vector lists (fusion weighs each list by its kind)."""
    if not candidates:
        return []
    results = await run_all(conn, [statement for _, statement in candidates])
    found = [
        Listed(chunks, n >= dense_from, store.candidate_ids(rows))
        for n, ((chunks, _), rows) in enumerate(zip(candidates, results, strict=True))
        if chunks is not None
    ]
    for listed in found:
        if listed.chunks:
            chunk_ids.update(listed.ids)
    return found


async def _vector(services: Services, req: QueryInput, sink: Bookings) -> list[float] | None:
    if req.mode == "lexical":
        return None
    if req.vector is not None:
        return list(req.vector)
    return (await embed_texts(services, [req.query], sink))[0]


async def run_query(
    services: Services, caller: Caller, context_id: uuid.UUID, req: QueryInput
) -> QueryResponse:
    """Full-text candidates are read while the query embeds in a thread; then the exact
    vector scans; then weighted RRF over every list (fusion.py), the reranker point, and
    one read of the winners."""
    who = reader_for(caller, context_id, req.scope)
    require_storable(req.query, "query")
    if not req.query.strip():
        raise InvalidInput("query must not be empty", field="query")
    at = parse_moment(req.as_of)
    text = or_query(req.query) if req.mode != "vector" else ""
    if not text and req.mode == "lexical":
        return QueryResponse(query=req.query, hits=[])
    p = query_plan(who, req, at)
    sink = Bookings()  # a billed embedder's tokens for the query (a local one books none)
    embedding = asyncio.ensure_future(_vector(services, req, sink))
    chunk_ids: set[uuid.UUID] = set()
    async with services.db.connection() as conn:
        ann = await vector_plan(services, conn, who.context_id) if at is None else EXACT
        windows_too = not ann.chunks_indexed
        lexical = lexical_candidates(who, p, text, windows_too=windows_too) if text else []
        lists: list[Listed] = []
        if req.vector is None:  # the query embeds in a thread meanwhile
            lists, lexical = await _rank(conn, lexical, chunk_ids, len(lexical)), []
        vector = await embedding
        dense: Candidates = []
        if vector is not None:
            dense = dense_candidates(who, p, vector, ann)
        lists += await _rank(conn, lexical + dense, chunk_ids, len(lexical))
        # A speaker the query names is a preference (retrieval/speakers.py); the fused
        # list is final after it: the reranker stage (retrieval/rerank_stage.py) may
        # reorder its head, and cuts it to the limit.
        fused = await prefer_named_speakers(conn, who, req.query, fuse_lists(lists), chunk_ids)
        top = await rerank_fused(services, conn, who, req, fused, chunk_ids, at=at, sink=sink)
        record_ids = [i for i, _ in top if i not in chunk_ids]
        records, chunks = await _read_hits(conn, who, req, top, record_ids, at)
        hits = [
            render_record(records[i], s) if i in records else render_chunk(chunks[i], s)
            for i, s in top
            if i in records or i in chunks
        ]
    if sink.entries:
        async with services.db.transaction() as conn:
            await sink.write(conn, who.context_id)
    return QueryResponse(query=req.query, hits=hits)


async def _read_hits(
    conn: Conn,
    who: Reader,
    req: QueryInput,
    top: list[tuple[uuid.UUID, float]],
    record_ids: list[uuid.UUID],
    at: datetime | None = None,
) -> tuple[dict[uuid.UUID, RecordRow], dict[uuid.UUID, ChunkRow]]:
    """The winners' rows (gated again) and, after them, the traffic upsert: one round trip.
    A read as of a past moment is not traffic: hygiene counts what is used now."""
    served = set(record_ids)
    chunk_ids = [i for i, _ in top if i not in served]
    reads = []
    if record_ids:
        reads.append(store.record_rows(who, record_ids, req.include_superseded, at))
    if chunk_ids:
        reads.append(store.chunk_rows(who, chunk_ids, at))
    counted = traffic.statements(who.context_id, record_ids) if at is None else []
    results = await run_all(conn, reads + counted)
    records = store.records_by_id(results.pop(0)) if record_ids else {}
    chunks = store.chunks_by_id(results.pop(0)) if chunk_ids else {}
    return records, chunks
