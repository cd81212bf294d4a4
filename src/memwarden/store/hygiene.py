"""Memory hygiene: candidates, the review queue, judged pairs, links, guards and runs
(SQL in queries/hygiene.sql)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all, fetch_one


@dataclass(frozen=True)
class Member:
    """A record as a pair member: what adjudication and the cross-project filter read."""

    id: uuid.UUID
    kind: str
    body: str
    content: Any
    scope_path: str
    visibility: str
    owner_subject: str
    import_source_dir: str | None
    provenance_rank: int
    revision: int
    attr_key: str | None
    entity_name: str | None
    valid_from: datetime
    modified_at: datetime


@dataclass(frozen=True)
class Neighbour(Member):
    similarity: float
    judged_by: list[str]


@dataclass(frozen=True)
class WriteCandidate:
    """A near neighbour of one of a write's records (`subject_*`: that record's provenance,
    for the cross-project filter)."""

    subject_id: uuid.UUID
    subject_scope_path: str
    subject_owner_subject: str
    subject_visibility: str
    subject_import_source_dir: str | None
    id: uuid.UUID
    kind: str
    body: str
    scope_path: str
    owner_subject: str
    visibility: str
    import_source_dir: str | None
    similarity: float


@dataclass(frozen=True)
class Recent:
    id: uuid.UUID
    modified_at: datetime


@dataclass(frozen=True)
class Popular:
    id: uuid.UUID
    hits: int
    provenance_rank: int


@dataclass(frozen=True)
class QueueRow:
    id: uuid.UUID
    record_a: uuid.UUID
    record_b: uuid.UUID
    verdict: str
    superseding: str | None
    confidence: float
    similarity: float | None
    status: str
    resolution: str | None
    judge_model: str | None
    origin: str
    judging_path: str | None
    action: str | None
    reason: str | None
    revision_a: int | None
    revision_b: int | None
    decided_by: str | None
    decided_at: datetime | None
    created_at: datetime
    dismissed_because: str | None
    restored_at: datetime | None
    a_kind: str
    a_body: str
    a_content: Any
    a_scope_path: str
    a_visibility: str
    a_owner: str
    a_revision: int
    a_serving: str
    a_source_kind: str
    a_rank: int
    a_import_source_dir: str | None
    b_kind: str
    b_body: str
    b_content: Any
    b_scope_path: str
    b_visibility: str
    b_owner: str
    b_revision: int
    b_serving: str
    b_source_kind: str
    b_rank: int
    b_import_source_dir: str | None


@dataclass(frozen=True)
class LockedConflict:
    id: uuid.UUID
    record_a: uuid.UUID
    record_b: uuid.UUID
    status: str
    verdict: str
    superseding: str | None
    origin: str
    action: str | None


@dataclass(frozen=True)
class AutoResolution:
    id: uuid.UUID
    record_a: uuid.UUID
    record_b: uuid.UUID
    loser: str
    origin: str

    @property
    def winner(self) -> uuid.UUID:
        return self.record_b if self.loser == "a" else self.record_a


@dataclass(frozen=True)
class MergeRetired:
    """A record a consolidation merge retired (`by_pass`: superseded by the pass's own
    restatement, which is `superseded_by`)."""

    id: uuid.UUID
    kind: str
    content: Any
    body: str
    superseded_by: uuid.UUID | None
    by_pass: bool


@dataclass(frozen=True)
class PendingProvenance:
    """A pending pair with what the cross-project filter reads of both sides."""

    id: uuid.UUID
    a_scope_path: str
    a_owner: str
    a_import_source_dir: str | None
    b_scope_path: str
    b_owner: str
    b_import_source_dir: str | None


@dataclass(frozen=True)
class RestoreTarget:
    id: uuid.UUID
    revision: int
    kind: str
    content: Any
    body: str
    serving: str
    scope_path: str
    visibility: str
    owner_subject: str


@dataclass(frozen=True)
class Restored:
    id: uuid.UUID
    revision: int
    kind: str
    content: Any
    body: str


@dataclass(frozen=True)
class PendingPair:
    id: uuid.UUID
    record_a: uuid.UUID
    record_b: uuid.UUID


@dataclass(frozen=True)
class RunRow:
    id: uuid.UUID
    kind: str
    rejudge: bool
    status: str
    subjects: list[uuid.UUID]
    requested_by: str
    counts: dict[str, Any]
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    watermark: datetime | None
    watermark_id: uuid.UUID | None


@dataclass(frozen=True)
class Watermark:
    watermark: datetime
    watermark_id: uuid.UUID


@dataclass(frozen=True)
class NewConflict:
    """A queue row (or the record of an automatic action) as the scan writes it."""

    context_id: uuid.UUID
    id: uuid.UUID
    record_a: uuid.UUID
    record_b: uuid.UUID
    verdict: str
    confidence: float
    status: str = "pending"
    superseding: str | None = None
    similarity: float | None = None
    judge_model: str | None = None
    origin: str = "scan"
    judging_path: str | None = None
    action: str | None = "queued"
    loser: str | None = None
    run_id: uuid.UUID | None = None
    revision_a: int | None = None
    revision_b: int | None = None
    reason: str | None = None


def ordered(a: uuid.UUID, b: uuid.UUID) -> tuple[uuid.UUID, uuid.UUID]:
    return (a, b) if a < b else (b, a)


async def members(conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[Member]:
    params = {"context_id": context_id, "ids": list(ids)}
    return await fetch_all(conn, "hygiene_subject", Member, params)


async def pair_members(conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[Member]:
    """The served ones of `ids`, with or without a vector of their current revision."""
    params = {"context_id": context_id, "ids": list(ids)}
    return await fetch_all(conn, "hygiene_pair_members", Member, params)


async def neighbours(
    conn: Conn,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    *,
    band_low: float,
    band_high: float,
    limit: int,
) -> list[Neighbour]:
    params = {
        "context_id": context_id,
        "id": record_id,
        "band_low": band_low,
        "band_high": band_high,
        "limit": limit,
    }
    return await fetch_all(conn, "hygiene_neighbours", Neighbour, params)


async def write_candidates(
    conn: Conn,
    context_id: uuid.UUID,
    record_ids: Sequence[uuid.UUID],
    *,
    skipped_kinds: Sequence[str],
    max_subjects: int,
    band_low: float,
    band_high: float,
    limit: int,
) -> list[WriteCandidate]:
    """Each subject's nearest neighbours in one statement, by subject in `record_ids` order
    and then nearest first."""
    params = {
        "context_id": context_id,
        "ids": list(record_ids),
        "skipped": list(skipped_kinds),
        "max_subjects": max_subjects,
        "band_low": band_low,
        "band_high": band_high,
        "limit": limit,
    }
    return await fetch_all(conn, "hygiene_write_candidates", WriteCandidate, params)


async def recent_subjects(
    conn: Conn, context_id: uuid.UUID, since: Watermark | None, limit: int
) -> list[Recent]:
    params = {
        "context_id": context_id,
        "since": since.watermark if since else None,
        "since_id": since.watermark_id if since else None,
        "limit": limit,
    }
    return await fetch_all(conn, "hygiene_recent_subjects", Recent, params)


async def reexamine_subjects(
    conn: Conn,
    context_id: uuid.UUID,
    *,
    min_hits: int,
    window_days: int,
    adjudication_model: str,
    hygiene_model: str,
    limit: int,
) -> list[Popular]:
    params = {
        "context_id": context_id,
        "min_hits": min_hits,
        "window_days": window_days,
        "adjudication_model": adjudication_model,
        "hygiene_model": hygiene_model,
        "limit": limit,
    }
    return await fetch_all(conn, "hygiene_reexamine_subjects", Popular, params)


async def guard(conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, judge_model: str) -> None:
    params = {"context_id": context_id, "record_id": record_id, "judge_model": judge_model}
    await conn.execute(q("hygiene_guard"), params)


async def judged(
    conn: Conn,
    context_id: uuid.UUID,
    a: tuple[uuid.UUID, int],
    b: tuple[uuid.UUID, int],
    judge_model: str,
    verdict: str,
) -> None:
    lo, hi = (a, b) if a[0] < b[0] else (b, a)
    await conn.execute(
        q("hygiene_judged"),
        {
            "context_id": context_id,
            "record_lo": lo[0],
            "record_hi": hi[0],
            "revision_lo": lo[1],
            "revision_hi": hi[1],
            "judge_model": judge_model,
            "verdict": verdict,
        },
    )


async def link(
    conn: Conn,
    context_id: uuid.UUID,
    a: uuid.UUID,
    b: uuid.UUID,
    confidence: float,
    judge_model: str,
) -> bool:
    """True when the edge is new."""
    lo, hi = ordered(a, b)
    cur = await conn.execute(
        q("hygiene_link"),
        {
            "context_id": context_id,
            "record_lo": lo,
            "record_hi": hi,
            "confidence": confidence,
            "judge_model": judge_model,
        },
    )
    row = await cur.fetchone()
    return bool(row and row["created"])


async def links_of(conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID) -> list[dict]:
    cur = await conn.execute(q("hygiene_links_of"), {"context_id": context_id, "id": record_id})
    return await cur.fetchall()


async def insert_conflict(conn: Conn, row: NewConflict) -> uuid.UUID | None:
    """None when the guard refused it (the pair is pending, or a person decided it)."""
    cur = await conn.execute(q("hygiene_insert_conflict"), vars(row))
    found = await cur.fetchone()
    return found["id"] if found else None


async def pending_challenge(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID
) -> uuid.UUID | None:
    cur = await conn.execute(
        q("hygiene_pending_challenge"), {"context_id": context_id, "record_id": record_id}
    )
    found = await cur.fetchone()
    return found["id"] if found else None


async def queue(
    conn: Conn,
    context_id: uuid.UUID,
    *,
    prefixes: Sequence[str],
    subject: str,
    status: str | None = None,
    limit: int = 20,
    before: uuid.UUID | None = None,
    id: uuid.UUID | None = None,
) -> list[QueueRow]:
    params = {
        "context_id": context_id,
        "prefixes": list(prefixes),
        "subject": subject,
        "status": status,
        "limit": limit,
        "before": before,
        "id": id,
    }
    return await fetch_all(conn, "hygiene_queue", QueueRow, params)


async def lock_conflict(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> LockedConflict | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "hygiene_lock_conflict", LockedConflict, params)


async def decide_conflict(
    conn: Conn,
    context_id: uuid.UUID,
    id: uuid.UUID,
    *,
    status: str,
    resolution: str | None,
    decided_by: str | None,
    dismissed_because: str | None = None,
) -> bool:
    cur = await conn.execute(
        q("hygiene_decide_conflict"),
        {
            "context_id": context_id,
            "id": id,
            "status": status,
            "resolution": resolution,
            "decided_by": decided_by,
            "dismissed_because": dismissed_because,
        },
    )
    return await cur.fetchone() is not None


async def lock_auto_resolution(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID
) -> AutoResolution | None:
    params = {"context_id": context_id, "record_id": record_id}
    return await fetch_one(conn, "hygiene_lock_auto_resolution", AutoResolution, params)


async def settle_pending_pair(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> list[uuid.UUID]:
    """Dismiss (as stale) the pending row of the same pair as the conflict `id`."""
    cur = await conn.execute(q("hygiene_settle_pending_pair"), {"context_id": context_id, "id": id})
    return [row["id"] for row in await cur.fetchall()]


async def merge_aliases(
    conn: Conn, context_id: uuid.UUID, gone: uuid.UUID, survivor: uuid.UUID
) -> list[uuid.UUID]:
    params = {"context_id": context_id, "gone": gone, "survivor": survivor}
    cur = await conn.execute(q("hygiene_merge_aliases"), params)
    return [row["id"] for row in await cur.fetchall()]


async def merge_retired(
    conn: Conn, context_id: uuid.UUID, gone: uuid.UUID, aliases: Sequence[uuid.UUID]
) -> list[MergeRetired]:
    params = {"context_id": context_id, "gone": gone, "aliases": list(aliases)}
    return await fetch_all(conn, "hygiene_merge_retired", MergeRetired, params)


async def auto_resolution(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID
) -> AutoResolution | None:
    params = {"context_id": context_id, "record_id": record_id}
    return await fetch_one(conn, "hygiene_auto_resolution", AutoResolution, params)


async def mark_restored(conn: Conn, context_id: uuid.UUID, id: uuid.UUID, decided_by: str) -> None:
    params = {"context_id": context_id, "id": id, "decided_by": decided_by}
    await conn.execute(q("hygiene_mark_restored"), params)


async def record_for_restore(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID
) -> RestoreTarget | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "hygiene_record_for_restore", RestoreTarget, params)


async def restore_record(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Restored | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "hygiene_restore_record", Restored, params)


async def stale_sweep(conn: Conn, context_id: uuid.UUID) -> list[uuid.UUID]:
    cur = await conn.execute(q("hygiene_stale_sweep"), {"context_id": context_id})
    return [row["id"] for row in await cur.fetchall()]


async def pending_pairs(conn: Conn, context_id: uuid.UUID, limit: int) -> list[PendingPair]:
    params = {"context_id": context_id, "limit": limit}
    return await fetch_all(conn, "hygiene_pending_pairs", PendingPair, params)


async def pending_provenance(conn: Conn, context_id: uuid.UUID) -> list[PendingProvenance]:
    params = {"context_id": context_id}
    return await fetch_all(conn, "hygiene_pending_provenance", PendingProvenance, params)


async def dismiss_pending(
    conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID], because: str
) -> list[uuid.UUID]:
    params = {"context_id": context_id, "ids": list(ids), "because": because}
    cur = await conn.execute(q("hygiene_dismiss_pending"), params)
    return [row["id"] for row in await cur.fetchall()]


async def rejudged(
    conn: Conn,
    context_id: uuid.UUID,
    id: uuid.UUID,
    *,
    verdict: str,
    superseding: str | None,
    confidence: float,
    judge_model: str,
    judging_path: str,
    revision_a: int,
    revision_b: int,
) -> None:
    await conn.execute(
        q("hygiene_rejudged"),
        {
            "context_id": context_id,
            "id": id,
            "verdict": verdict,
            "superseding": superseding,
            "confidence": confidence,
            "judge_model": judge_model,
            "judging_path": judging_path,
            "revision_a": revision_a,
            "revision_b": revision_b,
        },
    )


async def insert_run(
    conn: Conn,
    context_id: uuid.UUID,
    id: uuid.UUID,
    *,
    kind: str,
    rejudge: bool,
    subjects: Sequence[uuid.UUID],
    requested_by: str,
) -> bool:
    """False when a full cycle is already queued or running for the Context."""
    cur = await conn.execute(
        q("hygiene_insert_run"),
        {
            "context_id": context_id,
            "id": id,
            "kind": kind,
            "rejudge": rejudge,
            "subjects": list(subjects),
            "requested_by": requested_by,
        },
    )
    return await cur.fetchone() is not None


async def active_run(conn: Conn, context_id: uuid.UUID) -> uuid.UUID | None:
    cur = await conn.execute(q("hygiene_active_run"), {"context_id": context_id})
    found = await cur.fetchone()
    return found["id"] if found else None


async def get_run(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> RunRow | None:
    return await fetch_one(conn, "hygiene_get_run", RunRow, {"context_id": context_id, "id": id})


async def start_run(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> bool:
    cur = await conn.execute(q("hygiene_start_run"), {"context_id": context_id, "id": id})
    return await cur.fetchone() is not None


async def progress_run(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, counts: dict[str, Any]
) -> None:
    params = {"context_id": context_id, "id": id, "counts": Jsonb(counts)}
    await conn.execute(q("hygiene_progress_run"), params)


async def finish_run(
    conn: Conn,
    context_id: uuid.UUID,
    id: uuid.UUID,
    *,
    status: str,
    counts: dict[str, Any],
    error: str | None = None,
    watermark: Watermark | None = None,
    owed: Sequence[uuid.UUID] = (),
) -> None:
    await conn.execute(
        q("hygiene_finish_run"),
        {
            "context_id": context_id,
            "id": id,
            "status": status,
            "counts": Jsonb(counts),
            "error": error,
            "watermark": watermark.watermark if watermark else None,
            "watermark_id": watermark.watermark_id if watermark else None,
            "owed": list(owed),
        },
    )


async def last_owed(conn: Conn, context_id: uuid.UUID) -> list[uuid.UUID]:
    """The subjects the last finished full cycle left pairs unrecorded for."""
    cur = await conn.execute(q("hygiene_last_owed"), {"context_id": context_id})
    row = await cur.fetchone()
    return list(row["owed"]) if row else []


async def last_watermark(conn: Conn, context_id: uuid.UUID) -> Watermark | None:
    params = {"context_id": context_id}
    return await fetch_one(conn, "hygiene_last_watermark", Watermark, params)
