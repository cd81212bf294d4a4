"""Supersede candidates a write hands back: for each new record, the near neighbours it
might replace (in the band, the owner's view, never a pair pending or decided), after the
cross-project filter, the same predicate every scan applies, and the replacement rule (a
record the new one could replace: at its scope path or above it, of its visibility).
Nothing is judged or changed: the writer decides, and declares a supersede on its next
write.

One statement finds every record's neighbours (store `write_candidates`), whatever the
number of records: a write pays one pass over its Context, not one per record."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memwarden.config import HygieneConfig
from memwarden.domain.replacement import Holder, refusal
from memwarden.hygiene.projects import project_of, provably_cross_project
from memwarden.store import hygiene as store
from memwarden.store.db import Conn

MAX_RECORDS = 10  # new records looked at per write
PER_RECORD = 3  # candidates handed back per record
SKIPPED_KINDS = frozenset({"entity"})  # names are merged by reconciliation, not replaced


def _replaceable(n: store.WriteCandidate) -> bool:
    """The replacement rule (domain/replacement.py): only a record the write's own record
    could replace is handed back, so a write is never nudged toward a refused supersede."""
    retired = Holder(n.id, True, n.scope_path, n.visibility, n.owner_subject)
    new = Holder(
        n.subject_id, True, n.subject_scope_path, n.subject_visibility, n.subject_owner_subject
    )
    return refusal(retired, new) is None


async def supersede_candidates(
    conn: Conn, context_id: uuid.UUID, record_ids: Sequence[uuid.UUID], config: HygieneConfig
) -> list[dict[str, Any]]:
    near = await store.write_candidates(
        conn,
        context_id,
        record_ids,
        skipped_kinds=sorted(SKIPPED_KINDS),
        max_subjects=MAX_RECORDS,
        band_low=config.band_low,
        band_high=config.band_high,
        limit=PER_RECORD * 3,
    )
    fresh = set(record_ids)  # the write's own records are not what it replaces
    kept: dict[uuid.UUID, list[store.WriteCandidate]] = {}
    for n in near:
        subject = project_of(
            scope_path=n.subject_scope_path,
            owner_subject=n.subject_owner_subject,
            import_source_dir=n.subject_import_source_dir,
        )
        other = project_of(
            scope_path=n.scope_path,
            owner_subject=n.owner_subject,
            import_source_dir=n.import_source_dir,
        )
        if n.id in fresh or n.kind in SKIPPED_KINDS or provably_cross_project(subject, other):
            continue
        if not _replaceable(n):
            continue
        kept.setdefault(n.subject_id, []).append(n)
    return [
        {
            "recordId": str(subject_id),
            "candidates": [
                {
                    "id": str(n.id),
                    "kind": n.kind,
                    "text": n.body,
                    "similarity": round(n.similarity, 4),
                }
                for n in found[:PER_RECORD]
            ],
        }
        for subject_id, found in kept.items()
    ]
