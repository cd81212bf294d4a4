"""The serving gate for memory records (pure).

`is_servable` is the record-local rule; `first_blocking` walks a record's transitive sources.
Their SQL twins are `memory_block_reason`, `memory_sources_servable` and `memory_servable` in
`store/migrations/0002_review.sql`; tests prove the two agree on every combination.

`is_visible` is the separate access rule: a record is seen only inside the request's scope and
the caller's read grants, and a private record only by its owner subject.
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from memwarden.domain.scope import Visibility, covers

Serving = Literal["live", "held", "superseded", "deleted", "erased"]
Disposition = Literal["approved", "rejected"]
Reason = Literal["deleted", "rejected", "held", "superseded", "invalidated", "expired"]

SERVING_STATES: tuple[Serving, ...] = ("live", "held", "superseded", "deleted", "erased")
STORED_DISPOSITIONS: tuple[Disposition | None, ...] = (None, "approved", "rejected")
# The order in which reasons are reported when several apply.
REASONS: tuple[Reason, ...] = (
    "deleted",
    "rejected",
    "held",
    "superseded",
    "invalidated",
    "expired",
)
MAX_SOURCE_DEPTH = 16


@dataclass(frozen=True)
class RecordState:
    """What the gate reads from a record: no content, no scope."""

    serving: Serving
    review_disposition: Disposition | None = None
    expires_at: datetime | None = None
    valid_to: datetime | None = None
    derived_from: tuple[uuid.UUID, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Eligibility:
    servable: bool
    reason: Reason | None = None


SERVABLE = Eligibility(True, None)


def is_servable(state: RecordState, now: datetime) -> Eligibility:
    """The record-local gate. Approval never overrides any other reason."""
    if state.serving in ("deleted", "erased"):  # an erased record blocks as a deleted one
        return Eligibility(False, "deleted")
    if state.review_disposition == "rejected":
        return Eligibility(False, "rejected")
    if state.serving == "held":
        return Eligibility(False, "held")
    if state.serving == "superseded":
        return Eligibility(False, "superseded")
    if state.valid_to is not None and state.valid_to <= now:
        return Eligibility(False, "invalidated")
    if state.expires_at is not None and state.expires_at <= now:
        return Eligibility(False, "expired")
    return SERVABLE


@dataclass(frozen=True)
class Blocking:
    record_id: uuid.UUID
    reason: Reason
    depth: int


def first_blocking(
    root: uuid.UUID,
    records: Mapping[uuid.UUID, RecordState],
    now: datetime,
    max_depth: int = MAX_SOURCE_DEPTH,
) -> Blocking | None:
    """The first record, breadth-first from `root` (depth 0), that fails the gate.

    Sources are visited in `derived_from` order; each id once, so cycles end; sources deeper
    than `max_depth` are not examined. An id missing from `records` (not a memory record)
    does not block and has no sources.
    """
    seen: set[uuid.UUID] = {root}
    queue: deque[tuple[uuid.UUID, int]] = deque([(root, 0)])
    while queue:
        record_id, depth = queue.popleft()
        state = records.get(record_id)
        if state is None:
            continue
        verdict = is_servable(state, now)
        if verdict.reason is not None:
            return Blocking(record_id, verdict.reason, depth)
        if depth >= max_depth:
            continue
        for source in state.derived_from:
            if source not in seen:
                seen.add(source)
                queue.append((source, depth + 1))
    return None


def is_servable_with_sources(
    root: uuid.UUID, records: Mapping[uuid.UUID, RecordState], now: datetime
) -> bool:
    """The full gate reads apply: the record and every transitive source."""
    return first_blocking(root, records, now) is None


@dataclass(frozen=True)
class RecordScope:
    path: str
    visibility: Visibility
    owner_subject: str


def is_visible(
    record: RecordScope,
    *,
    request_path: str,
    request_visibility: Visibility | None,
    read_prefixes: Iterable[str],
    subject: str,
) -> bool:
    """Inside the request's scope (path prefix and, when given, visibility), covered by a
    grant, and private records only for their owner subject."""
    if not covers(request_path, record.path):
        return False
    if request_visibility is not None and record.visibility != request_visibility:
        return False
    if record.visibility == "private" and record.owner_subject != subject:
        return False
    return any(covers(prefix, record.path) for prefix in read_prefixes)


def effective_prefixes(request_path: str, grant_prefixes: Sequence[str]) -> tuple[str, ...]:
    """The grant prefixes narrowed to the request's scope path (disjoint ones drop out)."""
    result: set[str] = set()
    for prefix in grant_prefixes:
        if covers(prefix, request_path):
            result.add(request_path)
        elif covers(request_path, prefix):
            result.add(prefix)
    return tuple(sorted(result))
