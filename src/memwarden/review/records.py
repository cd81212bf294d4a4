"""Serving reads (direct read, search) and vector attachment, all behind the serving gate."""

from __future__ import annotations

from memwarden.domain.eligibility import RecordScope, is_visible
from memwarden.domain.grants import Caller
from memwarden.errors import Conflict, NotFound
from memwarden.retrieval.search import search_memory
from memwarden.review import render
from memwarden.review.access import (
    read_prefixes,
    require_any,
    require_record,
    to_scope,
)
from memwarden.review.commands import stale
from memwarden.review.contract import (
    CONTRACT_VERSION,
    DIMENSIONS,
    EmbeddingRequest,
    ReadRequest,
    SearchRequest,
)
from memwarden.review.responses import (
    ContractRecord,
    EmbeddingAnswer,
    ReadAnswer,
    SearchAnswer,
    SearchHit,
)
from memwarden.store import memory as store
from memwarden.store import search as search_store
from memwarden.store.audit import audit
from memwarden.store.db import Database


async def read_record(db: Database, caller: Caller, request: ReadRequest) -> ReadAnswer:
    """The record when it is servable and visible; 404 otherwise, whatever the reason."""
    scope = to_scope(request.scope)
    prefixes = read_prefixes(caller, scope)
    assert caller.context_id is not None
    async with db.connection() as conn:
        row = await store.read_servable(conn, caller.context_id, request.record_id)
    if row is None or not is_visible(
        RecordScope(row.scope_path, row.visibility, row.owner_subject),
        request_path=scope.path,
        request_visibility=scope.visibility,
        read_prefixes=prefixes,
        subject=caller.subject,
    ):
        raise NotFound("memory record not found")
    return ReadAnswer(
        contract_version=CONTRACT_VERSION, record=ContractRecord(**render.record(row))
    )


async def search(db: Database, caller: Caller, request: SearchRequest) -> SearchAnswer:
    scope = to_scope(request.scope)
    prefixes = read_prefixes(caller, scope)
    assert caller.context_id is not None
    flt = request.filter
    async with db.transaction() as conn:
        await search_store.begin_snapshot(conn)
        result = await search_memory(
            conn,
            context_id=caller.context_id,
            prefixes=prefixes,
            subject=caller.subject,
            query=request.query,
            vector=request.vector,
            kinds=flt.kinds if flt else None,
            categories=flt.categories if flt else None,
            visibility=scope.visibility,
            limit=request.limit,
        )
    hits = [
        SearchHit(
            record=ContractRecord(**render.record(hit.record)),
            score=hit.score,
            lexical_rank=hit.lexical_rank,
            vector_rank=hit.vector_rank,
        )
        for hit in result.hits
    ]
    return SearchAnswer(contract_version=CONTRACT_VERSION, mode=result.mode, hits=hits)


async def attach_embedding(
    db: Database, caller: Caller, request: EmbeddingRequest
) -> EmbeddingAnswer:
    """A vector for exactly the current revision of a servable record; never replaced."""
    context_id = require_any(caller, "memory_write")
    scope = to_scope(request.scope)
    async with db.transaction() as conn:
        locked = await store.lock_record(conn, context_id, request.record_id)
        row = require_record(locked, scope, caller, "memory_write")
        if not row.servable:
            raise NotFound("memory record not found")
        if row.revision != request.revision:
            raise stale(row.revision, field="revision")
        created = await store.insert_embedding(
            conn,
            context_id=context_id,
            record_id=request.record_id,
            revision=request.revision,
            vector=request.vector,
            model=request.model,
        )
        if created is None:
            raise Conflict("this revision already has a vector", code="embedding_exists")
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="memory.embed",
            target_kind="memory_record",
            target_id=request.record_id,
        )
    return EmbeddingAnswer(
        contract_version=CONTRACT_VERSION,
        record_id=str(request.record_id),
        revision=request.revision,
        model=request.model,
        dimensions=DIMENSIONS,
    )
