"""The answers of the hygiene routes: `runs.start_scan` and `runs.get_run`, and
`queue.list_queue`, `resolve`, `restore` and `challenge` (`queue.render` builds an item)."""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer


class ScanStarted(Answer):
    runId: str
    status: str = Field(description="`queued`: poll GET /hygiene/runs/{run_id}.")


class HygieneCounts(Answer):
    """What a run did, per step (`scan.COUNT_KEYS`)."""

    subjects: int
    pairs_judged: int
    skipped_cross_project: int
    queued: int
    auto_resolved: int
    dismissed: int
    unrelated: int
    linked: int
    reexamined: int
    stopped_on_queue_cap: bool = Field(description="The run stopped on the review-queue cap.")


class HygieneRun(Answer):
    runId: str
    kind: str
    rejudge: bool | None
    status: str
    counts: HygieneCounts
    error: str | None
    requested_by: str | None
    created_at: str
    started_at: str | None
    finished_at: str | None


class QueueScope(Answer):
    """Where the record lives; null fields when the record is gone."""

    path: str | None
    visibility: str | None
    owner: str | None


class QueueProvenance(Answer):
    source_kind: str | None
    rank: int = Field(description="The provenance rank (`domain/provenance.py`).")
    rank_name: str
    import_source_dir: str | None = Field(description="Only on an imported record.")


class QueueMemory(Answer):
    """One side of a queue item: the record as it is now."""

    id: str
    kind: str | None
    text: str | None
    scope: QueueScope
    revision: int | None
    judged_revision: int | None
    serving: str | None
    provenance: QueueProvenance


class QueueItem(Answer):
    id: str
    origin: str = Field(description="How it came: a scan's pair, a `challenge`, a `pass`.")
    status: str
    verdict: str | None
    direction: str | None
    superseding: str | None
    confidence: float | None
    similarity: float | None
    judge_model: str | None
    judging_path: str | None
    action: str | None
    resolution: str | None
    reason: str | None
    dismissed_because: str | None
    decided_by: str | None
    decided_at: str | None
    restored_at: str | None
    created_at: str | None
    a: QueueMemory
    b: QueueMemory | None = Field(description="Null on a challenge (one record).")


class QueuePage(Answer):
    items: list[QueueItem]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class QueueResolved(Answer):
    item: QueueItem


class QueueChallenged(Answer):
    id: str = Field(description="The challenge's queue item.")
    status: str
    created: bool = Field(description="False when the record was already challenged.")
    item: QueueItem | None = Field(
        description="The item in full for a caller who may review the memory, else null."
    )


class MemoryRestored(Answer):
    record_id: str
    revision: int | None
    serving: str
