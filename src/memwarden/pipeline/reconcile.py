"""Reconciliation against the database: load what the scope knows, plan, write.

`load_known` runs twice per write: once before the transaction so the embedder can work
on the planned records' text outside it, and once under the scope lock, which is the plan
that is written (any text the first plan did not foresee is embedded then).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.domain.ids import new_id
from memwarden.domain.provenance import Rank, rank_for
from memwarden.domain.reconcile_entities import Naming
from memwarden.domain.reconcile_plan import plan
from memwarden.domain.reconcile_rules import (
    Incoming,
    Known,
    KnownEntity,
    KnownFact,
    Plan,
    accept_similar,
    normalise_key,
    normalise_name,
    normalise_value,
)
from memwarden.domain.speaker import NAME_KEYS, Speaker, is_speaker_norm
from memwarden.embedding import Vector
from memwarden.retirement import retire
from memwarden.store import ingest as store
from memwarden.store.db import Conn
from memwarden.store.ingest import WriteScope

NAME_FIELDS = {
    "entity": ("name",),
    "attribute": ("entity",),
    "relation": ("subject", "object"),
    "action": ("actor",),
    "correction": ("entity",),
}


def entity_names(
    items: Sequence[Incoming], naming: Naming | None = None
) -> dict[str, tuple[str, str]]:
    """norm name -> (name as first written, entity type) for every name that is an entity
    (first person and the speaker's names under the speaker entity's norm, with `naming`)."""
    norm_of = (naming or Naming()).norm
    found: dict[str, tuple[str, str]] = {}
    for item in items:
        etype = str(item.data.get("entityType") or "other") if item.kind == "entity" else "other"
        for key in NAME_FIELDS.get(item.kind, ()):
            name = str(item.data.get(key) or "")
            norm = norm_of(name)
            if norm and (norm not in found or item.kind == "entity"):
                found[norm] = (found.get(norm, (name, ""))[0], etype)
    return found


def _fact(row: Mapping[str, Any]) -> KnownFact:
    content = row["content"]
    if row["kind"] == "attribute":
        ident = normalise_value(str(content.get("value", "")))
    elif row["kind"] == "relation":
        ident = normalise_name(str(content.get("object", "")))
    else:
        ident = normalise_value(str(content.get("object", "")))
    return KnownFact(
        row["id"],
        row["kind"],
        row["entity_id"],
        row["attr_key"],
        ident,
        row["object_entity_id"],
        derived=rank_for(row["source_kind"]) == Rank.DERIVED,
    )


def _note_idents(items: Sequence[Incoming]) -> list[str]:
    out = []
    for item in items:
        d = item.data
        if item.kind == "instruction":
            out.append(normalise_value(d["description"]))
        elif item.kind == "uncertainty":
            out.append(f"{normalise_value(d['about'])}|{normalise_value(d['reason'])}")
    return out


async def load_known(
    conn: Conn,
    where: WriteScope,
    items: Sequence[Incoming],
    name_vectors: Mapping[str, Vector],
    speaker: Speaker | None = None,
) -> Known:
    """The speaker's entity and the names it carries; entities by normalised name, then by
    name similarity (never the speaker's, which only first person and its own names reach);
    live facts and notes they touch."""
    speaker_names: frozenset[str] = frozenset()
    if speaker is not None:
        values = await store.speaker_names(conn, where, speaker.norm, sorted(NAME_KEYS))
        speaker_names = frozenset(normalise_name(v) for v in values) - {""}
    naming = Naming.of(speaker, items, Known({}, speaker_names=speaker_names))
    names = entity_names(items, naming)
    extra = [naming.norm(str(i.data.get("object") or "")) for i in items if i.kind == "action"]
    rows = await store.entities_by_name(conn, where, sorted(set(names) | set(extra) - {""}))
    entities = {
        r["norm_name"]: KnownEntity(r["id"], r["name"], r["entity_type"], r["memory_category"])
        for r in rows
    }
    missing: list[tuple[str, tuple[str, str], list[float]]] = []
    for norm, (name, etype) in names.items():
        vector = name_vectors.get(name)
        if norm not in entities and vector is not None and not is_speaker_norm(norm):
            missing.append((norm, (name, etype), vector))
    similar = await store.similar_entities(conn, where, [v for _, _, v in missing])
    for row in similar:
        norm, (_name, etype), _v = missing[row["ord"] - 1]
        if accept_similar(etype, row["entity_type"], float(row["similarity"])):
            entities[norm] = KnownEntity(
                row["id"], row["name"], row["entity_type"], row["memory_category"]
            )
    keys = {normalise_key(str(i.data.get("key") or i.data.get("label") or "")) for i in items}
    fact_rows = await store.live_facts(
        conn, where, sorted({e.id for e in entities.values()}), sorted(keys - {""})
    )
    note_rows = await store.live_notes(conn, where, _note_idents(items))
    return Known(
        entities,
        [_fact(r) for r in fact_rows],
        {(r["kind"], r["norm_name"]): r["id"] for r in note_rows},
        speaker_names,
    )


@dataclass(frozen=True)
class WriteMeta:
    """Provenance and hold state shared by every record of one write."""

    source_ref: uuid.UUID
    author: str
    write_hold: uuid.UUID | None = None
    row_holds: Mapping[str, uuid.UUID] = field(default_factory=dict)
    warned: Mapping[str, Sequence[str]] = field(default_factory=dict)
    source_kind: str = "turn"  # or "document", "reflection": what source_ref names
    derived_from: Sequence[uuid.UUID] = ()  # records this write was inferred from (reflection)
    # Who "I" is (domain/speaker.py); None for a pass, whose rows name entities as stored.
    speaker: Speaker | None = None


def make_plan(items: Sequence[Incoming], known: Known, meta: WriteMeta) -> Plan:
    return plan(
        items,
        known,
        new_id,
        write_held=meta.write_hold is not None,
        warned=meta.warned,
        speaker=meta.speaker,
        derived=rank_for(meta.source_kind) == Rank.DERIVED,
        sources=frozenset(meta.derived_from),
    )


async def write_plan(
    conn: Conn,
    where: WriteScope,
    p: Plan,
    meta: WriteMeta,
    vectors: Mapping[str, Vector],
    model: str,
) -> None:
    """Insert the plan's records (rev 1 + vector), apply supersedes, append the feed."""
    cid = where.context_id
    records, revisions, embeddings, events = [], [], [], []
    for r in p.records:
        holds_with = r.held_with or r.row_id or ""
        hold = (meta.row_holds.get(holds_with) or meta.write_hold) if r.held else None
        records.append(
            {
                **where.params(),
                "id": r.id,
                "kind": r.kind,
                "memory_category": r.category,
                "owner_subject": where.subject,
                "content": Jsonb(r.content),
                "body": r.body,
                "norm_name": r.norm,
                "entity_id": r.entity_id,
                "object_entity_id": r.object_entity_id,
                "attr_key": r.attr_key,
                "source_kind": meta.source_kind,
                "source_ref": meta.source_ref,
                "author_subject": meta.author,
                "serving": "held" if r.held else "live",
                "hold_judgement_id": hold,
                "derived_from": list(meta.derived_from),
                "provenance_rank": int(rank_for(meta.source_kind)),
            }
        )
        revisions.append(
            {
                "context_id": cid,
                "record_id": r.id,
                "revision": 1,
                "op": "create",
                "content": Jsonb(r.content),
                "actor_subject": meta.author,
            }
        )
        # A held record gets no vector (vector search finds it only once approved).
        vector = None if r.held else vectors.get(r.embed_text)
        if vector is not None:
            embeddings.append(
                {
                    "context_id": cid,
                    "record_id": r.id,
                    "revision": 1,
                    "embedding": vector,
                    "model": model,
                }
            )
        events.append({"record_id": r.id, "revision": 1, "kind": r.kind, "entry_type": "created"})
    await store.insert_records(conn, records)
    await store.insert_revisions(conn, revisions)
    await store.insert_embeddings(conn, embeddings)
    for s in p.supersedes:
        # The planner asked the replacement rule already; asked again on the rows as this
        # transaction sees them (the one rule every supersede obeys: retirement.py).
        done = await retire(conn, cid, s.old_id, s.new_id, meta.author, cause="correction")
        if done.event is not None:
            events.append(done.event)
    await store.change_events(conn, cid, events)


def plan_texts(p: Plan) -> list[str]:
    """The texts the plan's records are embedded by: held ones wait for their approval."""
    return [r.embed_text for r in p.records if not r.held]


async def lock_scope(conn: Conn, where: WriteScope) -> None:
    await store.lock_scope(conn, where)
