"""The reconciliation planner (pure): gated diff items + what is known -> writes as data.

The write is first netted against itself (`reconcile_netting`), then each item goes to
the part that owns its rule: entity resolution (`reconcile_entities`), slot and value
rules for facts and corrections (`reconcile_slots`), notes (`reconcile_notes`); all of
them add to one draft plan and its diff (`reconcile_draft`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from memwarden.domain.reconcile_draft import Draft
from memwarden.domain.reconcile_entities import Entities, Naming, given_names, hidden_entities
from memwarden.domain.reconcile_netting import last_wins, net_of_corrections
from memwarden.domain.reconcile_notes import JUDGE_NOTE_ABOUT, Notes
from memwarden.domain.reconcile_rules import IdFactory, Incoming, Known, Plan
from memwarden.domain.reconcile_slots import Slots
from memwarden.domain.speaker import Speaker

__all__ = ["JUDGE_NOTE_ABOUT", "last_wins", "net_of_corrections", "plan"]


def plan(
    items: Sequence[Incoming],
    known: Known,
    new_id: IdFactory,
    *,
    write_held: bool = False,
    warned: Mapping[str, Sequence[str]] | None = None,
    speaker: Speaker | None = None,
    derived: bool = False,
    sources: frozenset[uuid.UUID] = frozenset(),
) -> Plan:
    """Reconcile one write's items (entities first, corrections after the facts they touch);
    first person resolves to `speaker`'s own entity. `derived`: the write is a pass's or a
    reflection's, built from `sources`, so it replaces only what the replacement rule lets
    a derived record replace (domain/replacement.py)."""
    netted = net_of_corrections(last_wins(items), write_held)
    draft = Draft(new_id, write_held, derived, sources)
    kept = [item for item, _keep in netted]
    naming = Naming.of(speaker, kept, known)
    given = given_names(kept, known.speaker_names)
    entities = Entities(
        known, draft, hidden_entities(kept, naming), naming, given[0] if given else None
    )
    slots = Slots(known.facts, entities, draft)
    notes = Notes(known.notes, draft)
    for item, keep in netted:
        d = item.data
        if item.kind == "entity":
            entities.resolve(
                d["name"],
                d.get("entityType") or "other",
                d.get("memoryCategory", "context"),
                item.row_id,
            )
        elif item.kind == "attribute":
            slots.attribute(item, d)
        elif item.kind in ("relation", "action"):
            subj = d["subject"] if item.kind == "relation" else d["actor"]
            slots.link(
                item.kind,
                item,
                subj,
                d["label"],
                d.get("object") or "",
                d.get("memoryCategory", "context"),
            )
        elif item.kind == "correction":
            slots.correction(item, d, keep)
        else:
            notes.note(item.kind, item, d)
    if warned:
        notes.judge_note(warned)
    return draft.plan
