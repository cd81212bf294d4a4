"""Which vector statements a Context's recall runs, and how deep an index walk goes.

A Context without its own index is scanned exactly by prepared statements (one generic
plan serves every small Context). One with an index is walked by statements planned per
call (a generic plan cannot use a partial index), at a depth (`hnsw.ef_search`) that grows
with the index: recall@10 against an exact scan of the same Context, measured on the
benchmark corpus (docs/benchmarks.md, "walk depth"), was 1.0 at 10,000 and 20,000 rows
with depth 100; at 50,000 rows 0.96 with 100 and 0.98 with 200; at 100,000 rows 0.86
with 100, 0.92 with 200 and 0.98 with 400. A deeper walk also costs more, and at 10,000
rows a depth of 400 made the planner prefer the exact scan.

A Context's profile is read from the catalog and kept `PROFILE_TTL_S` per process: an
index built meanwhile is used that much later (the exact scan answers the same until
then); a profile naming an index that was dropped still answers right (the walk
statements fall back to an exact scan). A profile that finds the Context past the index
threshold without its indexes queues their build (`indexing.request_index`) and is then
read again every `PENDING_TTL_S`, so the index is walked at most that long after its build
ends; the build is asked for again only after `REQUEST_AGAIN_S` (a lost job).
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from memwarden.retrieval import indexing
from memwarden.services import Services
from memwarden.store import vector_index as store
from memwarden.store.batch import Statement
from memwarden.store.db import Conn
from memwarden.store.vector_index import VectorProfile

PROFILE_TTL_S = 30.0  # as services.vector_profiles keeps an entry
PENDING_TTL_S = 2.0
REQUEST_AGAIN_S = 600.0
# (rows below which, depth): the first that fits; past the last, DEEPEST.
DEPTHS = ((20_000, 100), (50_000, 200))
DEEPEST = 400


def walk_depth_for(rows: float) -> int:
    """The HNSW walk depth for an index of `rows` rows (unknown, -1: the shallowest)."""
    for below, depth in DEPTHS:
        if rows < below:
            return depth
    return DEEPEST


@dataclass(frozen=True)
class VectorPlan:
    """Whether records and chunks are walked (else scanned exactly), and for each walked
    index the statement that sets its walk depth (None for a list scanned exactly): each
    index is walked at the depth its own size needs."""

    records_indexed: bool
    chunks_indexed: bool
    depth: Statement | None
    chunk_depth: Statement | None


def _depth(rows: float | None) -> Statement | None:
    return None if rows is None else store.walk_depth(walk_depth_for(rows))


def plan_for(found: VectorProfile) -> VectorPlan:
    return VectorPlan(
        found.records is not None,
        found.chunks is not None,
        _depth(found.records),
        _depth(found.chunks),
    )


@dataclass(frozen=True)
class _Known:
    """A profile as this process read it, when, and when it last asked for a build."""

    profile: VectorProfile
    read_at: float
    requested_at: float | None = None

    def fresh(self, now: float) -> bool:
        pending = self.requested_at is not None and not _indexed(self.profile)
        return now - self.read_at < (PENDING_TTL_S if pending else PROFILE_TTL_S)


def _indexed(found: VectorProfile) -> bool:
    return found.records is not None and found.chunks is not None


async def vector_plan(services: Services, conn: Conn, context_id: uuid.UUID) -> VectorPlan:
    """The Context's plan, from the process's cache or the catalog (which also tells whether
    the Context has grown past the threshold without its indexes: their build is queued)."""
    now = time.monotonic()
    known: _Known | None = services.vector_profiles.get(context_id)
    if known is None or not known.fresh(now):
        asked = known.requested_at if known is not None else None
        if asked is not None and now - asked > REQUEST_AGAIN_S:
            asked = None
        threshold = None if asked is not None else services.settings.vector_index_threshold
        found = await store.profile(conn, context_id, threshold)
        if found.due and await indexing.request_index(services, context_id):
            asked = now
        known = _Known(found, now, asked)
        services.vector_profiles.put(context_id, known)
    return plan_for(known.profile)
