"""Supersede candidates a write hands back: for each new record, the near neighbours it
might replace (in the band, the owner's view, never a pair pending or decided), after the
cross-project filter, the same predicate every scan applies. Nothing is judged or
changed: the writer decides, and declares a supersede on its next write."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memwarden.config import HygieneConfig
from memwarden.hygiene.projects import provably_cross_project
from memwarden.hygiene.scan import side
from memwarden.store import hygiene as store
from memwarden.store.db import Conn

MAX_RECORDS = 10  # new records looked at per write (each costs one neighbour scan)
PER_RECORD = 3  # candidates handed back per record
SKIPPED_KINDS = frozenset({"entity"})  # names are merged by reconciliation, not replaced


async def supersede_candidates(
    conn: Conn, context_id: uuid.UUID, record_ids: Sequence[uuid.UUID], config: HygieneConfig
) -> list[dict[str, Any]]:
    found = await store.members(conn, context_id, record_ids)
    subjects = [m for m in found if m.kind not in SKIPPED_KINDS][:MAX_RECORDS]
    fresh = set(record_ids)  # the write's own records are not what it replaces
    answer = []
    for subject in subjects:
        near = await store.neighbours(
            conn,
            context_id,
            subject.id,
            band_low=config.band_low,
            band_high=config.band_high,
            limit=PER_RECORD * 3,
        )
        a = side(subject)
        kept = [
            n
            for n in near
            if n.id not in fresh
            and n.kind not in SKIPPED_KINDS
            and not provably_cross_project(a.project, side(n).project)
        ]
        if kept:
            answer.append(
                {
                    "recordId": str(subject.id),
                    "candidates": [
                        {
                            "id": str(n.id),
                            "kind": n.kind,
                            "text": n.body,
                            "similarity": round(n.similarity, 4),
                        }
                        for n in kept[:PER_RECORD]
                    ],
                }
            )
    return answer
