"""Each large Context gets its own vector index, without an operator.

Below `VECTOR_INDEX_THRESHOLD` embedded records, an exact scan of a Context's rows is as fast
as an index walk and exact by definition; above it, the exact scan grows with the Context
(measured in docs/benchmarks.md) while a per-Context HNSW index stays near a millisecond.
A periodic job (`jobs/tasks.py`) builds the index for every Context that has passed the
threshold; `search_vector` uses it from then on (the planner picks it per call).
"""

from __future__ import annotations

import uuid

import structlog

from memwarden.store import vector_index as store
from memwarden.store.db import Database

log = structlog.get_logger(__name__)

VECTOR_INDEX_THRESHOLD = 5000


async def index_large_contexts(
    db: Database, threshold: int = VECTOR_INDEX_THRESHOLD
) -> list[uuid.UUID]:
    """Build the missing indexes (CONCURRENTLY: writes go on); the Contexts indexed now."""
    built: list[uuid.UUID] = []
    async with db.connection() as conn:
        for context_id in await store.contexts_needing_index(conn, threshold):
            name = await store.build_index(conn, context_id)
            log.info("vector_index_built", context_id=str(context_id), index=name)
            built.append(context_id)
    return built
