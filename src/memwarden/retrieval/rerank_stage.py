"""The reranker stage of /query: a second opinion on the fused top N, or nothing.

With no reranker configured (the default) it is the fused list cut to the limit and costs
nothing. With one, the first `MEMWARDEN_RERANK_CANDIDATES` fused candidates are read (gated
as the hits are), sent to the reranker, and put in its order; the fused score stays on each
hit. A reranker that fails, times out (`MEMWARDEN_RERANK_TIMEOUT_S`, inside any request
deadline) or answers nonsense leaves the fused order as it was: recall never fails because a
second opinion did. A Context whose token budget is spent is served the fused order too.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import structlog

from memwarden.budget import check_budget
from memwarden.config import ConfigUnreadable, load_config
from memwarden.errors import BudgetExhausted
from memwarden.models.base import ModelError
from memwarden.models.deadline import request_deadline
from memwarden.services import Services
from memwarden.store import admin as admin_store
from memwarden.store import recall as store
from memwarden.store.batch import run_all
from memwarden.store.db import Conn
from memwarden.store.recall import Reader
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)

Scored = list[tuple[uuid.UUID, float]]


class RerankRequest(Protocol):
    """What the stage reads of a query (`query.QueryInput` has it; no import cycle)."""

    @property
    def query(self) -> str: ...

    @property
    def limit(self) -> int: ...

    @property
    def include_superseded(self) -> bool: ...


def reorder(candidates: Scored, order: Sequence[tuple[int, float]]) -> Scored:
    """The candidates in the reranker's order; those it left out follow in the given order.

    Scores stay those of `candidates` (the fused ones), so a hit's score means the same with
    or without a reranker; the order is the reranker's."""
    placed = [i for i, _ in order if 0 <= i < len(candidates)]
    chosen = set(placed)
    rest = [i for i in range(len(candidates)) if i not in chosen]
    return [candidates[i] for i in [*dict.fromkeys(placed), *rest]]


async def _texts(
    conn: Conn,
    who: Reader,
    history: bool,
    ids: list[uuid.UUID],
    chunk_ids: set[uuid.UUID],
    at: datetime | None,
) -> dict[uuid.UUID, str]:
    """The candidates' texts, read through the same gate as the hits (one round trip)."""
    record_ids = [i for i in ids if i not in chunk_ids]
    chunks = [i for i in ids if i in chunk_ids]
    reads = []
    if record_ids:
        reads.append(store.record_rows(who, record_ids, history, at))
    if chunks:
        reads.append(store.chunk_rows(who, chunks, at))
    results = await run_all(conn, reads)
    out: dict[uuid.UUID, str] = {}
    if record_ids:
        out.update({i: r.body for i, r in store.records_by_id(results.pop(0)).items()})
    if chunks:
        out.update({i: r.text for i, r in store.chunks_by_id(results.pop(0)).items()})
    return out


async def _may_spend(conn: Conn, context_id: uuid.UUID, sink: Bookings) -> bool:
    """Whether the Context's token budget allows one more model call (its config readable)."""
    row = await admin_store.get_context(conn, context_id)
    if row is None:
        return False
    try:
        config = load_config(row.config)
        await check_budget(conn, context_id, config.token_budget, pending=sink.total_tokens)
    except (ConfigUnreadable, BudgetExhausted) as exc:
        log.info("rerank_skipped", reason=type(exc).__name__)
        return False
    return True


async def rerank_fused(
    services: Services,
    conn: Conn,
    who: Reader,
    req: RerankRequest,
    fused: Scored,
    chunk_ids: set[uuid.UUID],
    *,
    at: datetime | None,
    sink: Bookings,
) -> Scored:
    """The hits to serve, best first: the fused list, reranked at its head when a reranker
    is configured, cut to the request's limit."""
    reranker = services.reranker
    depth = services.settings.rerank_candidates
    if reranker is None or len(fused) < 2 or req.limit <= 0:
        return fused[: req.limit]
    head = fused[:depth]
    texts = await _texts(conn, who, req.include_superseded, [i for i, _ in head], chunk_ids, at)
    readable = [(i, s) for i, s in head if i in texts]
    if len(readable) < 2 or not await _may_spend(conn, who.context_id, sink):
        return fused[: req.limit]
    try:
        with request_deadline(services.settings.rerank_timeout_s):
            result = await reranker.rerank(
                req.query, [texts[i] for i, _ in readable], usage_sink=sink
            )
    except ModelError as exc:
        log.warning("rerank_failed", error=type(exc).__name__, detail=str(exc)[:200])
        return fused[: req.limit]
    return (reorder(readable, result.order) + fused[depth:])[: req.limit]
