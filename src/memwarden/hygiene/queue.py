"""The review queue and its corrections: list, resolve, restore, challenge (spec 2).

Each is one transaction. A queue item is decided once: the item's row is locked, so of N
concurrent decisions exactly one wins and the others answer 409. Resolving with `keep_a`
or `keep_b` retires the other memory only as the replacement rule allows
(`retirement.retire`, history kept), else 409 `replacement_refused` naming the rule's
reason and nothing changes; `restore` undoes an automatic resolution (a scan's, or a
consolidation merge with the facts it carried); `challenge` puts a memory in front of a
person without invalidating it.
"""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.admin.access import require_capability, require_key
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.provenance import Rank
from memwarden.domain.replacement import MESSAGES
from memwarden.embedding import embed_texts, embedder_name, text_for
from memwarden.errors import Conflict, Erased, Forbidden, InvalidInput, NotFound
from memwarden.hygiene.contract import QueueStatus, Resolution
from memwarden.hygiene.responses import (
    MemoryRestored,
    QueueChallenged,
    QueueItem,
    QueueMemory,
    QueuePage,
    QueueProvenance,
    QueueResolved,
    QueueScope,
)
from memwarden.paging import id_cursor, split_page
from memwarden.retirement import retire
from memwarden.services import Services
from memwarden.store import hygiene as store
from memwarden.store import ingest as ingest_store
from memwarden.store import memory as memory_store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn
from memwarden.store.hygiene import MergeRetired, NewConflict, QueueRow
from memwarden.usage import Bookings

MAX_PAGE = 100
REVIEW = "memory_review"
# Grants by which a key may know that a record exists (it could read or act on it).
SEEING = ("memory_read", "memory_write", REVIEW)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _memory(row: QueueRow, side: str) -> QueueMemory:
    get = lambda name: getattr(row, f"{side}_{name}")  # noqa: E731
    rank = int(get("rank"))
    return QueueMemory(
        id=str(getattr(row, f"record_{side}")),
        kind=get("kind"),
        text=get("body"),
        scope=QueueScope(path=get("scope_path"), visibility=get("visibility"), owner=get("owner")),
        revision=get("revision"),
        judged_revision=getattr(row, f"revision_{side}"),
        serving=get("serving"),
        provenance=QueueProvenance(
            source_kind=get("source_kind"),
            rank=rank,
            rank_name=Rank(rank).name.lower(),
            import_source_dir=get("import_source_dir"),
        ),
    )


def render(row: QueueRow) -> QueueItem:
    """A queue item as every interface shows it."""
    challenge = row.origin == "challenge"
    direction = None
    if row.superseding is not None:
        direction = "a_supersedes_b" if row.superseding == "a" else "b_supersedes_a"
    return QueueItem(
        id=str(row.id),
        origin=row.origin,
        status=row.status,
        verdict=row.verdict,
        direction=direction,
        superseding=row.superseding,
        confidence=row.confidence,
        similarity=row.similarity,
        judge_model=row.judge_model,
        judging_path=row.judging_path,
        action=row.action,
        resolution=row.resolution,
        reason=row.reason,
        dismissed_because=row.dismissed_because,
        decided_by=row.decided_by,
        decided_at=_iso(row.decided_at),
        restored_at=_iso(row.restored_at),
        created_at=_iso(row.created_at),
        a=_memory(row, "a"),
        b=None if challenge else _memory(row, "b"),
    )


async def list_queue(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    status: QueueStatus | None = "pending",
    limit: int = 20,
    cursor: str | None = None,
) -> QueuePage:
    """Newest first, only items whose both memories the caller may review."""
    require_capability(caller, context_id, REVIEW)
    if status is not None and status not in ("pending", "resolved", "dismissed"):
        raise InvalidInput("status must be pending, resolved or dismissed", field="status")
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    async with services.db.connection() as conn:
        rows = await store.queue(
            conn,
            context_id,
            prefixes=caller.prefixes(REVIEW),
            subject=caller.subject,
            status=status,
            limit=limit + 1,
            before=id_cursor(cursor),
        )
    page, next_cursor = split_page(rows, limit, lambda r: str(r.id))
    return QueuePage(items=[render(r) for r in page], next_cursor=next_cursor)


async def _item(conn: Conn, caller: Caller, context_id: uuid.UUID, id: uuid.UUID) -> QueueRow:
    """The item if the caller may review both its memories; 404 otherwise (an item the
    caller may not see does not exist for it)."""
    rows = await store.queue(
        conn,
        context_id,
        prefixes=caller.prefixes(REVIEW),
        subject=caller.subject,
        status=None,
        limit=1,
        id=id,
    )
    if not rows:
        raise NotFound("queue item not found")
    return rows[0]


async def resolve(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    conflict_id: uuid.UUID,
    resolution: Resolution,
) -> QueueResolved:
    """A person's decision on a pending item; a second decision is 409."""
    require_capability(caller, context_id, REVIEW)
    async with services.db.transaction() as conn:
        locked = await store.lock_conflict(conn, context_id, conflict_id)
        if locked is None:
            raise NotFound("queue item not found")
        await _item(conn, caller, context_id, conflict_id)
        if locked.status != "pending":
            raise Conflict(f"this item is already {locked.status}", code="already_decided")
        if locked.origin == "challenge" and resolution != "keep_both":
            raise InvalidInput(
                "a challenge is settled with keep_both; to retire the memory, delete or reject "
                "it through the memory contract",
                field="resolution",
            )
        if resolution != "keep_both":
            winner, loser = (
                (locked.record_a, locked.record_b)
                if resolution == "keep_a"
                else (locked.record_b, locked.record_a)
            )
            done = await retire(
                conn,
                context_id,
                loser,
                winner,
                caller.subject,
                cause="hygiene_resolution",
                by_person=True,
            )
            if done.refused is not None:
                raise Conflict(
                    f"{resolution} cannot be applied: {MESSAGES[done.refused]}",
                    code="replacement_refused",
                    extra={"reason": done.refused},
                )
            if done.event is not None:
                await ingest_store.change_events(conn, context_id, [done.event])
        await store.decide_conflict(
            conn,
            context_id,
            conflict_id,
            status="resolved",
            resolution=resolution,
            decided_by=caller.subject,
        )
        await _audit(conn, caller, context_id, "hygiene.resolve", "conflict", conflict_id)
        item = await _item(conn, caller, context_id, conflict_id)
    return QueueResolved(item=render(item))


async def restore(
    services: Services, caller: Caller, context_id: uuid.UUID, record_id: uuid.UUID
) -> MemoryRestored:
    """Undo an automatic resolution: the superseded memory is live again (a new revision
    with its vector), and the pair counts as decided by a person (never auto-resolved or
    merged again). Undoing a consolidation merge of an entity also brings back the facts
    the merge retired (each live again with its vector) and retires what the merge wrote
    (the survivor's restatements of them and its alias), with history. 409 when there is no
    automatic resolution to undo."""
    require_capability(caller, context_id, REVIEW)
    async with services.db.connection() as conn:
        target = await _reviewable(conn, caller, context_id, record_id, (REVIEW,))
        plan = await _merge_plan(conn, context_id, target)
    records = [(target.id, target.kind, target.content, target.body)]
    records += [(r.id, r.kind, r.content, r.body) for r in plan.retired]
    sink = Bookings()
    vectors = await embed_texts(services, [text_for(k, c, b) for _, k, c, b in records], sink)
    async with services.db.transaction() as conn:
        resolution = await store.lock_auto_resolution(conn, context_id, record_id)
        if resolution is None:
            raise Conflict(
                "no automatic resolution of this memory to undo", code="nothing_to_restore"
            )
        revision = None
        for (rid, *_), vector in zip(records, vectors, strict=True):
            back = await _restore_one(conn, services, caller, context_id, rid, vector)
            if rid == record_id:
                if back is None:
                    raise Conflict("the memory is no longer superseded", code="nothing_to_restore")
                revision = back
        if resolution.origin == "pass":
            await _retire_merge_output(conn, caller, context_id, plan)
        await store.settle_pending_pair(conn, context_id, resolution.id)
        await store.mark_restored(conn, context_id, resolution.id, caller.subject)
        await sink.write(conn, context_id)
        await _audit(conn, caller, context_id, "hygiene.restore", "record", record_id)
    return MemoryRestored(record_id=str(record_id), revision=revision, serving="live")


class _MergePlan:
    """What undoing a consolidation merge of an entity touches: the facts it retired and the
    pass's own records to retire (restatement -> the fact it restated; an alias -> None)."""

    def __init__(self, retired: list[MergeRetired], aliases: list[uuid.UUID]) -> None:
        self.retired = retired
        self.output: dict[uuid.UUID, uuid.UUID | None] = dict.fromkeys(aliases)
        for r in retired:
            if r.by_pass and r.superseded_by is not None:
                self.output.setdefault(r.superseded_by, r.id)


async def _merge_plan(conn: Conn, context_id: uuid.UUID, target: store.RestoreTarget) -> _MergePlan:
    resolution = await store.auto_resolution(conn, context_id, target.id)
    if resolution is None or resolution.origin != "pass" or target.kind != "entity":
        return _MergePlan([], [])
    aliases = await store.merge_aliases(conn, context_id, target.id, resolution.winner)
    retired = await store.merge_retired(conn, context_id, target.id, aliases)
    return _MergePlan(retired, aliases)


async def _retire_merge_output(
    conn: Conn, caller: Caller, context_id: uuid.UUID, plan: _MergePlan
) -> None:
    """The merge's restatements retire in favour of the fact each restated (live again); an
    alias, or a restatement the rule will not let its fact replace, ends with no
    replacement."""
    events = []
    for record, restated in plan.output.items():
        done = await retire(
            conn,
            context_id,
            record,
            restated,
            caller.subject,
            cause="hygiene_resolution",
            by_person=True,
        )
        if done.refused is not None:
            done = await retire(
                conn, context_id, record, None, caller.subject, cause="hygiene_resolution"
            )
        if done.event is not None:
            events.append(done.event)
    await ingest_store.change_events(conn, context_id, events)


async def _restore_one(
    conn: Conn,
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    vector: Any,
) -> int | None:
    """One superseded record live again at a new revision with its vector and a `restored`
    feed entry; None when it was no longer superseded."""
    restored = await store.restore_record(conn, context_id, record_id)
    if restored is None:
        return None
    await memory_store.insert_revision(
        conn,
        context_id=context_id,
        record_id=record_id,
        revision=restored.revision,
        op="restore",
        content=restored.content,
        actor_subject=caller.subject,
    )
    await ingest_store.insert_embeddings(
        conn,
        [
            {
                "context_id": context_id,
                "record_id": record_id,
                "revision": restored.revision,
                "embedding": vector,
                "model": embedder_name(services),
            }
        ],
    )
    await change(
        conn,
        context_id=context_id,
        record_id=record_id,
        revision=restored.revision,
        kind=restored.kind,
        entry_type="restored",
    )
    return restored.revision


async def challenge(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    reason: str,
) -> QueueChallenged:
    """Flag a memory wrong against the world for a person; nothing is invalidated. A memory
    already awaiting a person's look answers its pending item (created: false). The item
    (the memory's text, every challenger's reason) is shown only to a caller who may review
    the memory; any other challenger gets the item's id and an acknowledgement."""
    require_key(caller)
    if not (caller.can_any("memory_write") or caller.can_any(REVIEW)):
        raise Forbidden("needs memory_write or memory_review", code="missing_grant")
    async with services.db.transaction() as conn:
        target = await _reviewable(conn, caller, context_id, record_id, ("memory_write", REVIEW))
        existing = await store.pending_challenge(conn, context_id, record_id)
        created = existing is None
        if existing is None:
            existing = new_id()
            await store.insert_conflict(
                conn,
                NewConflict(
                    context_id=context_id,
                    id=existing,
                    record_a=record_id,
                    record_b=record_id,
                    verdict="contradiction",
                    confidence=1.0,
                    origin="challenge",
                    action="queued",
                    revision_a=target.revision,
                    revision_b=target.revision,
                    reason=reason,
                ),
            )
            await _audit(conn, caller, context_id, "hygiene.challenge", "conflict", existing)
        item = None
        if caller.can(REVIEW, target.scope_path):
            rows = await store.queue(
                conn,
                context_id,
                prefixes=("",),
                subject=caller.subject,
                status=None,
                limit=1,
                id=existing,
            )
            item = render(rows[0])
    return QueueChallenged(id=str(existing), status="pending", created=created, item=item)


async def _reviewable(
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    capabilities: tuple[str, ...],
) -> store.RestoreTarget:
    """The record, if the caller holds one of `capabilities` over its scope (and it is
    shared or the caller's own). 404 for an unknown record and for one the caller could not
    know of (no grant that reads or acts on its scope), so that an id outside a key's scope
    answers as a random one does; 403 for one it can see without the grant."""
    require_key(caller)
    if caller.context_id != context_id:
        raise Forbidden("the credential does not belong to this Context")
    row = await store.record_for_restore(conn, context_id, record_id)
    if row is None or row.serving == "deleted":
        raise NotFound("memory record not found")
    if row.visibility == "private" and row.owner_subject != caller.subject:
        raise NotFound("memory record not found")
    if not any(caller.can(c, row.scope_path) for c in capabilities):
        if not any(caller.can(c, row.scope_path) for c in SEEING):
            raise NotFound("memory record not found")
        raise Forbidden(
            f"needs {' or '.join(capabilities)} covering the record's scope", code="missing_grant"
        )
    if row.serving == "erased":
        raise Erased()
    return row


async def _audit(
    conn: Conn, caller: Caller, context_id: uuid.UUID, action: str, kind: str, target: uuid.UUID
) -> None:
    await audit(
        conn,
        context_id=context_id,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action=action,
        target_kind=kind,
        target_id=target,
    )
