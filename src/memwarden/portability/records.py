"""A batch of this service's own export lines, judged and reconciled, then written.

Every record passes the ingest judge's two gates as a write does (the input gate on its
text, the row gate on its row; a refused record is reported and nothing of it is
written), then meets what the Context already holds: a record whose id is taken is a
skip, an entity of the same name in the same scope is that entity (the facts naming it are
attached to it), and a served record saying the same in the same scope is a duplicate.
What remains is written as exported (its id, revisions, validity, serving and review
state, review receipts) with `source_kind = 'import'` and the import's source directory.
A record held in the Context it came from is not imported: its hold names a review-log
entry of that Context, which only a reviewer there can decide.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memwarden.config import ContextConfig
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.provenance import rank_for
from memwarden.domain.scope import Scope
from memwarden.embedding import embed_texts, embedder_name, text_for
from memwarden.errors import (
    AppError,
    BudgetExhausted,
    JudgeUnavailable,
    Unavailable,
    UpstreamError,
)
from memwarden.gatekeeper import GateRequest, PendingJudgement, RowInput
from memwarden.services import Services
from memwarden.store import ingest as ingest_store
from memwarden.store import portability as store
from memwarden.store.db import Conn
from memwarden.usage import Bookings

ROW_KINDS = frozenset({"entity", "attribute", "relation", "action", "instruction", "uncertainty"})
"""The kinds the row gate judges (a note is judged by the input gate alone)."""
ROW_ID = "r0"


@dataclass
class Judged:
    """One item after the gates: its outcome if already decided, else what to write."""

    seq: int
    key: str
    payload: dict[str, Any]
    outcome: str | None = None
    detail: str | None = None
    pending: list[PendingJudgement] = field(default_factory=list)
    request: GateRequest | None = None
    held: bool = False
    vector: Any = None


async def judge(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    config: ContextConfig,
    seq: int,
    key: str,
    payload: dict[str, Any],
) -> Judged:
    """The gates for one record line (no transaction open): refused, held or kept."""
    item = Judged(seq, key, payload)
    if payload["kind"] not in ("record", "turn"):
        return item
    if payload["serving"] == "held":
        item.outcome, item.detail = "skipped", "held_in_source"
        return item
    scope = Scope(payload["scope"], payload["visibility"])
    if not caller.can("memory_write", scope.path):
        item.outcome, item.detail = "refused", "missing_grant"
        return item
    text = payload["body"] if payload["kind"] == "record" else payload["text"]
    request = GateRequest(context_id, caller, config, "facts_batch", scope, text)
    try:
        verdict = await services.gatekeeper.input_gate(request)
        if verdict.pending is not None:
            item.pending.append(verdict.pending)
        item.held = verdict.hold
        if payload.get("recordKind") in ROW_KINDS:
            row = RowInput(ROW_ID, payload["recordKind"], dict(payload["content"]))
            rows = await services.gatekeeper.row_gate(request.holding(verdict.hold), [row])
            item.pending.extend(rows.pending)
            if ROW_ID in rows.dropped or ROW_ID not in rows.keep:
                item.outcome, item.detail = "refused", "row_gate"
                item.pending = []
                return item
            item.held = item.held or ROW_ID in rows.held
    except (BudgetExhausted, UpstreamError, Unavailable, JudgeUnavailable):
        raise  # stops the import (run.py), never one item's refusal
    except AppError as exc:
        item.outcome, item.detail = "refused", exc.code
        return item
    item.request = request
    return item


def vector_revisions(payload: dict[str, Any], model: str) -> list[int]:
    """The revisions of a record that had a vector of this deployment's embedder (`model`)
    for the text it holds now: they get one again (the same text, the same vector). A
    revision without one (a note a command wrote) or with another model's (a client's,
    POST /memory/embeddings) gets none: that client attaches its own again."""
    content = payload["content"]
    return [
        r["revision"]
        for r in payload["revisions"]
        if r.get("embeddingModel") == model and r["content"] == content
    ]


async def embed(services: Services, items: Sequence[Judged], sink: Bookings) -> None:
    """Vectors for the served records and the turns' chunks about to be written, in one
    call: those that had one where they came from (a held one gets its vector on approval,
    as any held write)."""
    model = embedder_name(services)
    wanted = [
        i
        for i in items
        if i.outcome is None
        and not i.held
        and (
            vector_revisions(i.payload, model)
            if i.payload["kind"] == "record"
            else i.payload.get("serving") == "live"
        )
    ]
    texts: list[str] = []
    for i in wanted:
        if i.payload["kind"] == "record":
            p = i.payload
            texts.append(text_for(p["recordKind"], p["content"], p["body"]))
        elif i.payload["kind"] == "turn":
            texts.extend(c["text"] for c in i.payload["chunks"] if c["embedded"])
    if not texts:
        return
    vectors = iter(await embed_texts(services, texts, sink))
    for i in wanted:
        if i.payload["kind"] == "record":
            i.vector = next(vectors)
        elif i.payload["kind"] == "turn":
            i.vector = [next(vectors) if c["embedded"] else None for c in i.payload["chunks"]]


def _row(
    context_id: uuid.UUID, import_id: uuid.UUID, source_dir: str, p: dict[str, Any]
) -> dict[str, Any]:
    review = p.get("review") or {}
    return {
        "context_id": context_id,
        "id": uuid.UUID(p["id"]),
        "kind": p["recordKind"],
        "memory_category": p["category"],
        "scope_path": p["scope"],
        "visibility": p["visibility"],
        "owner_subject": p["owner"],
        "content": p["content"],
        "body": p["body"],
        "norm_name": p["normName"],
        "entity_id": p["entityId"],
        "object_entity_id": p["objectEntityId"],
        "attr_key": p["attrKey"],
        "source_ref": import_id,
        "import_source_dir": source_dir,
        "provenance_rank": int(
            rank_for("import", approved=review.get("disposition") == "approved")
        ),
        "author_subject": p["author"],
        "derived_from": p["provenance"]["derivedFrom"],
        "revision": p["revision"],
        "review_disposition": review.get("disposition"),
        "review_revision": review.get("revision"),
        "review_receipt_id": review.get("receiptId"),
        "serving": p["serving"],
        "hold_judgement_id": None,
        "valid_from": p["validFrom"],
        "valid_to": p["validTo"],
        "superseded_by": p["supersededBy"],
        "expires_at": p["expiresAt"],
        "deleted_at": p["deletedAt"],
        "created_at": p["createdAt"],
        "modified_at": p["modifiedAt"],
    }


@dataclass
class Batch:
    """The import a batch belongs to, and the ids earlier items were matched to."""

    context_id: uuid.UUID
    import_id: uuid.UUID
    source_dir: str
    model: str
    remap: dict[str, str] = field(default_factory=dict)
    looked_up: set[str] = field(default_factory=set)


Outcome = tuple[str, str | None, uuid.UUID | None]
Key = tuple[Any, ...]


def _same_key(kind: str, norm: Any, entity: Any, attr: Any, body: Any, where: Key) -> Key:
    """What makes two served records the same: an entity's name, a fact's entity, key and
    text, each in one scope, visibility and owner."""
    return ("entity", norm, *where) if kind == "entity" else (kind, entity, attr, body, *where)


@dataclass
class Writes:
    """What a batch writes, in bulk at its end (in its transaction)."""

    records: list[dict[str, Any]] = field(default_factory=list)
    revisions: list[dict[str, Any]] = field(default_factory=list)
    receipts: list[dict[str, Any]] = field(default_factory=list)
    embeddings: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    chunks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Known:
    """What the Context holds that a batch's items may meet, read once per batch."""

    records: set[uuid.UUID]
    turns: set[uuid.UUID]
    sessions: set[uuid.UUID]
    same: dict[Key, uuid.UUID]


async def _prefetch(conn: Conn, batch: Batch, items: Sequence[Judged]) -> Known:
    cid = batch.context_id
    kept = [i.payload for i in items if i.outcome is None]
    recs = [p for p in kept if p["kind"] == "record"]
    turns = [p for p in kept if p["kind"] == "turn"]
    entities = {n for p in recs for n in (p.get("entityId"), p.get("objectEntityId")) if n}
    unknown = [f"memwarden:{n}" for n in entities - set(batch.remap) - batch.looked_up]
    batch.looked_up.update(n.removeprefix("memwarden:") for n in unknown)
    if unknown:
        for item_key, target in (await store.seen_keys(conn, cid, unknown)).items():
            if target is not None:
                batch.remap[item_key.removeprefix("memwarden:")] = str(target)
    live = await store.live_like(
        conn, cid, [p["body"] for p in recs], [p["normName"] for p in recs if p["normName"]]
    )
    same: dict[Key, uuid.UUID] = {}
    for r in live:
        where = (r["scope_path"], r["visibility"], r["owner_subject"])
        key = _same_key(
            r["kind"], r["norm_name"], _s(r["entity_id"]), r["attr_key"], r["body"], where
        )
        same.setdefault(key, r["id"])
    return Known(
        records=await store.existing_ids(conn, cid, [uuid.UUID(p["id"]) for p in recs]),
        turns=await store.existing_turns(conn, cid, [uuid.UUID(p["id"]) for p in turns]),
        sessions=await store.existing_sessions(
            conn, cid, list({uuid.UUID(p["sessionId"]) for p in turns})
        ),
        same=same,
    )


def _s(value: Any) -> str | None:
    return str(value) if value is not None else None


async def write_batch(
    conn: Conn, services: Services, batch: Batch, items: Sequence[Judged]
) -> list[Outcome]:
    """A batch of judged items in its transaction: each item's outcome, detail and record."""
    known = await _prefetch(conn, batch, items)
    writes = Writes()
    outcomes = [await _one(conn, services, batch, known, writes, item) for item in items]
    await store.insert_records(conn, writes.records)
    await store.insert_revisions(conn, writes.revisions)
    await store.insert_receipts(conn, writes.receipts)
    await ingest_store.insert_embeddings(conn, writes.embeddings)
    await store.insert_turns(conn, writes.turns)
    await store.insert_chunks(conn, writes.chunks)
    await ingest_store.change_events(conn, batch.context_id, writes.events)
    return outcomes


async def _one(
    conn: Conn, services: Services, batch: Batch, known: Known, writes: Writes, item: Judged
) -> Outcome:
    p = item.payload
    if item.outcome is not None:
        return item.outcome, item.detail, None
    cid = batch.context_id
    if p["kind"] == "link":
        row = {
            "context_id": cid,
            "record_lo": uuid.UUID(p["recordLo"]),
            "record_hi": uuid.UUID(p["recordHi"]),
            "kind": p["linkKind"],
            "confidence": p["confidence"],
            "judge_model": p["judgeModel"],
            "created_at": p["createdAt"],
        }
        await store.insert_records(conn, writes.records)  # the link's records may be new
        writes.records.clear()
        done = await store.insert_link(conn, row)
        return ("imported", None, None) if done else ("skipped", "records_missing", None)
    if p["kind"] == "session":
        principal = await store.principal_of(conn, cid, new_id(), p["principal"])
        session = {
            "context_id": cid,
            "id": uuid.UUID(p["id"]),
            "principal_id": principal,
            "scope_path": p["scope"],
            "created_at": p["createdAt"],
        }
        done = await store.insert_session(conn, session)
        known.sessions.add(session["id"])
        return ("imported", None, None) if done else ("skipped", "id_exists", None)
    if p["kind"] == "turn":
        return await _turn(conn, services, known, writes, item, cid)
    if p["kind"] != "record":
        return "skipped", "not_imported", None
    return await _record(conn, services, batch, known, writes, item)


async def _record(
    conn: Conn, services: Services, batch: Batch, known: Known, writes: Writes, item: Judged
) -> Outcome:
    p, cid = item.payload, batch.context_id
    record_id = uuid.UUID(p["id"])
    if record_id in known.records:
        return "skipped", "id_exists", record_id
    for name in ("entityId", "objectEntityId"):
        if p.get(name) in batch.remap:
            p[name] = batch.remap[p[name]]
    where = (p["scope"], p["visibility"], p["owner"])
    key = _same_key(p["recordKind"], p["normName"], p["entityId"], p["attrKey"], p["body"], where)
    if p["serving"] == "live":
        same = known.same.get(key)
        if same is not None:
            if p["recordKind"] == "entity":
                batch.remap[p["id"]] = str(same)
            return "duplicate", "same_entity" if p["recordKind"] == "entity" else "same_fact", same
        known.same[key] = record_id  # a later line saying the same is a duplicate of this
    known.records.add(record_id)
    assert item.request is not None
    ids = await services.gatekeeper.record(conn, item.request, item.pending) if item.pending else []
    row = _row(cid, batch.import_id, batch.source_dir, p)
    if item.held:
        row["serving"] = "held"
        row["hold_judgement_id"] = next(
            (i for i, pj in zip(ids, item.pending, strict=False) if pj.held),
            ids[0] if ids else None,
        )
    writes.records.append(row)
    writes.revisions.extend(
        {
            "context_id": cid,
            "record_id": record_id,
            "revision": r["revision"],
            "op": r["op"],
            "content": r["content"],
            "actor_subject": r["actor"],
            "created_at": r["at"],
            "cause": r["cause"],
            "valid_from": r["validFrom"],
            "valid_to": r["validTo"],
            "replaced_by": r["replacedBy"],
        }
        for r in p["revisions"]
    )
    writes.receipts.extend(
        {
            "context_id": cid,
            "id": uuid.UUID(r["id"]),
            "record_id": record_id,
            "revision": r["revision"],
            "disposition": r["disposition"],
            "reviewer_subject": r["reviewer"],
            "key_id": uuid.UUID(r["keyId"]),
            "evidence_ref": r["evidenceRef"],
            "idempotency_key": r["idempotencyKey"],
            "command_digest": r["commandDigest"],
            "scope": r["scope"],
            "decided_at": r["decidedAt"],
        }
        for r in p["receipts"]
    )
    if item.vector is not None and not item.held:
        writes.embeddings.extend(
            {
                "context_id": cid,
                "record_id": record_id,
                "revision": revision,
                "embedding": item.vector,
                "model": batch.model,
            }
            for revision in vector_revisions(p, batch.model)
        )
    writes.events.append(
        {
            "record_id": record_id,
            "revision": p["revision"],
            "kind": p["recordKind"],
            "entry_type": "created",
        }
    )
    return ("held" if item.held else "imported"), None, record_id


async def _turn(
    conn: Conn, services: Services, known: Known, writes: Writes, item: Judged, cid: uuid.UUID
) -> Outcome:
    """A turn as exported, with its chunks (their ids kept, their vectors new)."""
    p = item.payload
    turn_id, session_id = uuid.UUID(p["id"]), uuid.UUID(p["sessionId"])
    if turn_id in known.turns:
        return "skipped", "id_exists", None
    if session_id not in known.sessions:
        return "skipped", "no_session", None
    known.turns.add(turn_id)
    assert item.request is not None
    ids = await services.gatekeeper.record(conn, item.request, item.pending) if item.pending else []
    hold = next((i for i, pj in zip(ids, item.pending, strict=False) if pj.held), None)
    common = {
        "context_id": cid,
        "scope_path": p["scope"],
        "visibility": p["visibility"],
        "owner_subject": p["owner"],
        "serving": "held" if item.held else p["serving"],
        "hold_judgement_id": hold if item.held else None,
        "created_at": p["createdAt"],
    }
    writes.turns.append(
        {
            **common,
            "id": turn_id,
            "session_id": session_id,
            "text": p["text"],
            "speaker": p["speaker"],
        }
    )
    vectors = item.vector or [None] * len(p["chunks"])
    writes.chunks.extend(
        {
            **common,
            "id": uuid.UUID(c["id"]),
            "turn_id": turn_id,
            "ordinal": c["ordinal"],
            "text": c["text"],
            "embedding": v,
        }
        for c, v in zip(p["chunks"], vectors, strict=True)
    )
    return ("held" if item.held else "imported"), None, None


def model_name(services: Services) -> str:
    return embedder_name(services)
