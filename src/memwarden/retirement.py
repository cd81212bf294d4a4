"""Retiring a record in favour of another: the replacement rule applied, then the supersede.

Every path that retires a record because another takes its place calls `retire` in its own
transaction: a write's plan, a declared supersede, the facts a merge carries, a hygiene
auto-resolution, a reviewer's `keep_a` / `keep_b`, a consolidation merge. It reads both
records as they stand in that transaction (share-locking the replacement), asks
`domain.replacement.refusal`, and only then supersedes through the write path's one
supersede (history kept, so `restore` can undo it). A refusal changes nothing: the caller
keeps both or hands the pair to a person.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from memwarden.domain.provenance import Rank, rank_for
from memwarden.domain.replacement import Holder, Refusal, refusal
from memwarden.domain.revision_cause import SupersedeCause
from memwarden.store import ingest as ingest_store
from memwarden.store import replacement as store
from memwarden.store.db import Conn
from memwarden.store.replacement import HolderRow


@dataclass(frozen=True)
class Retirement:
    """What `retire` did: `event` (the feed entry to append) when it superseded, `refused`
    when the rule said no; neither when the record was no longer live (nothing to do)."""

    event: dict[str, Any] | None = None
    refused: Refusal | None = None

    @property
    def applied(self) -> bool:
        return self.event is not None


def holder(row: HolderRow) -> Holder:
    return Holder(
        id=row.id,
        served=row.served,
        scope_path=row.scope_path,
        visibility=row.visibility,
        owner_subject=row.owner_subject,
        derived=rank_for(row.source_kind) == Rank.DERIVED,
        sources=frozenset(row.sources),
    )


async def check(
    conn: Conn,
    context_id: uuid.UUID,
    old_id: uuid.UUID,
    new_id: uuid.UUID,
    *,
    by_person: bool = False,
    restating: bool = False,
) -> Refusal | None:
    """The rule on the two records as this transaction sees them (both share-locked)."""
    found = await store.holders(conn, context_id, [old_id, new_id])
    if new_id not in found:
        return "replacement_not_served"
    if old_id not in found:
        return None  # nothing to retire: `supersede_recorded` finds no live record
    return refusal(
        holder(found[old_id]), holder(found[new_id]), by_person=by_person, restating=restating
    )


async def retire(
    conn: Conn,
    context_id: uuid.UUID,
    old_id: uuid.UUID,
    new_id: uuid.UUID | None,
    actor: str,
    *,
    cause: SupersedeCause,
    by_person: bool = False,
    restating: bool = False,
) -> Retirement:
    """Supersede `old_id` by `new_id` if the replacement rule allows it. `new_id` None ends
    a fact without a replacement (a writer's own correction in its own scope: nothing is
    served in its place, and nothing is hidden from a reader that another reader sees).
    `cause` is what the record's history shows for the supersede."""
    if new_id is not None:
        reason = await check(
            conn, context_id, old_id, new_id, by_person=by_person, restating=restating
        )
        if reason is not None:
            return Retirement(refused=reason)
    event = await ingest_store.supersede_recorded(conn, context_id, old_id, new_id, actor, cause)
    return Retirement(event=event)
