"""Approving or rejecting held content: one decision per judgement, the second is 409.

Held records carry no vector, so vector search cannot find them. Approval embeds them
before its transaction (a text it did not foresee, in it) and releases everything held
under the judgement (turn, chunks, records) as it is, with the vector of the released
revision: it retires nothing, so a released value that conflicts with a current one leaves
both current until a later write settles them. An embedder error fails the approval and
releases nothing. Rejection deletes the held turn, chunks and records (their revisions
and vectors with them) in its transaction; the feed says `deleted`, the review-log entry
keeps its excerpt for the Context's retention period.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memwarden.admin.access import require_judgements
from memwarden.domain.grants import Caller
from memwarden.embedding import Vector, embed_texts, embedder_name, text_for
from memwarden.errors import Conflict, NotFound
from memwarden.judge.responses import HoldChanges, HoldDecision
from memwarden.judge.review import render
from memwarden.services import Services
from memwarden.store import ingest as ingest_store
from memwarden.store import judgements as store
from memwarden.store import memory as memory_store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn
from memwarden.store.judgements import MovedRecord
from memwarden.usage import Bookings


async def decide(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    *,
    approve: bool,
) -> HoldDecision:
    require_judgements(caller, context_id)
    decision = "approved" if approve else "rejected"
    sink = Bookings()
    vectors = await _embed_held(services, context_id, judgement_id, sink) if approve else {}
    async with services.db.transaction() as conn:
        row = await store.lock_judgement(conn, context_id, judgement_id)
        if row is None:
            raise NotFound("judgement not found")
        if not row.held:
            raise Conflict("this judgement holds nothing", code="not_held")
        if row.hold_decision is not None:
            raise Conflict(f"this hold was already {row.hold_decision}", code="already_decided")
        await store.decide_hold(conn, context_id, judgement_id, decision)
        if approve:
            turns, chunks, records = await store.release_held(conn, context_id, judgement_id)
            await _released(conn, services, caller, context_id, records, vectors, sink)
        else:
            turns, chunks, records = await store.remove_held(conn, context_id, judgement_id)
            await _feed(conn, context_id, records, "deleted")
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="judge.approve" if approve else "judge.reject",
            target_kind="judgement",
            target_id=judgement_id,
        )
        updated = await store.get_judgement(conn, context_id, judgement_id)
    assert updated is not None
    return HoldDecision(
        judgement=render(updated),
        changed=HoldChanges(facts=len(records), chunks=chunks, turns=turns),
    )


def _text(record: MovedRecord) -> str:
    return text_for(record.kind, record.content, record.body)


async def _embed_held(
    services: Services, context_id: uuid.UUID, judgement_id: uuid.UUID, sink: Bookings
) -> dict[str, Vector]:
    """The held records' texts, embedded before the approval's transaction opens."""
    async with services.db.connection() as conn:
        rows = await store.held_records(conn, context_id, judgement_id)
    texts = list(dict.fromkeys(_text(r) for r in rows))
    return dict(zip(texts, await embed_texts(services, texts, sink), strict=True))


async def _released(
    conn: Conn,
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    records: Sequence[MovedRecord],
    vectors: dict[str, Vector],
    sink: Bookings,
) -> None:
    """Each released record's `release` revision, its vector for that revision, its feed
    entry; the embedder's usage is booked with the decision."""
    missing = list(dict.fromkeys(t for r in records if (t := _text(r)) not in vectors))
    vectors.update(zip(missing, await embed_texts(services, missing, sink), strict=True))
    model = embedder_name(services)
    embeddings = []
    for record in records:
        await memory_store.insert_revision(
            conn,
            context_id=context_id,
            record_id=record.id,
            revision=record.revision,
            op="release",
            content=record.content,
            actor_subject=caller.subject,
        )
        vector = vectors.get(_text(record))
        if vector is not None:
            embeddings.append(
                {
                    "context_id": context_id,
                    "record_id": record.id,
                    "revision": record.revision,
                    "embedding": vector,
                    "model": model,
                }
            )
    await ingest_store.insert_embeddings(conn, embeddings)
    await sink.write(conn, context_id)
    await _feed(conn, context_id, records, "released")


async def _feed(
    conn: Conn, context_id: uuid.UUID, records: Sequence[MovedRecord], entry: str
) -> None:
    for record in records:
        await change(
            conn,
            context_id=context_id,
            record_id=record.id,
            revision=record.revision,
            kind=record.kind,
            entry_type=entry,
        )
