"""Each large Context gets its own vector index, without an operator.

Below the threshold (`MEMWARDEN_VECTOR_INDEX_THRESHOLD`, 5,000 embedded records), an exact
scan of a Context's rows is as fast as an index walk and exact by definition; above it, the
exact scan grows with the Context (measured in docs/benchmarks.md) while a per-Context HNSW
index stays near a millisecond. Two ways lead to the build, both on the job queue:

- recall asks for it: the first /query that finds a Context past the threshold without
  its indexes queues `memwarden:vector_index_build` for that Context
  (`retrieval/vector_plan.py`), so a Context just filled is indexed from its first query
  on, not at the periodic job's next tick;
- the periodic `memwarden:vector_indexes` job finds every Context that passed the threshold
  (one nobody queries included) every five minutes.

Both run under one job lock, so one build at a time runs across workers; `search_vector`
uses an index from the moment it is valid (the planner picks it per call).
"""

from __future__ import annotations

import uuid

import structlog
from procrastinate.exceptions import AlreadyEnqueued

from memwarden.services import Services
from memwarden.store import vector_index as store
from memwarden.store.db import Database

log = structlog.get_logger(__name__)

VECTOR_INDEX_THRESHOLD = 5000
BUILD_TASK = "memwarden:vector_index_build"
QUEUE = "maintenance"
LOCK = "vector_indexes"  # the periodic job's too: one build at a time


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


async def index_context(db: Database, context_id: uuid.UUID) -> bool:
    """One Context's indexes, unless both are there already (the periodic job or an earlier
    request built them meanwhile); whether a build ran."""
    async with db.connection() as conn:
        if await store.has_indexes(conn, context_id):
            return False
        name = await store.build_index(conn, context_id)
    log.info("vector_index_built", context_id=str(context_id), index=name, asked_by="recall")
    return True


async def request_index(services: Services, context_id: uuid.UUID) -> bool:
    """Queue the Context's build; True when it is queued (now or already). A queue that
    cannot take it costs the query nothing: the periodic job builds it later."""
    deferrer = services.jobs.configure_task(
        BUILD_TASK, queue=QUEUE, lock=LOCK, queueing_lock=f"vector_index:{context_id}"
    )
    try:
        await deferrer.defer_async(context_id=str(context_id))
    except AlreadyEnqueued:
        return True
    except Exception:  # the answer does not depend on it
        log.warning("vector_index_not_queued", context_id=str(context_id))
        return False
    log.info("vector_index_requested", context_id=str(context_id))
    return True
