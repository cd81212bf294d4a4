"""The reconciliation planner (pure): gated diff items + what is known -> writes as data.

The write is first netted against itself (`reconcile_netting`), then each item goes to
the part that owns its rule: entity resolution (`reconcile_entities`), slot and value
rules for facts and corrections (`reconcile_slots`), notes (`reconcile_notes`); all of
them add to one draft plan and its diff (`reconcile_draft`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memwarden.domain.reconcile_draft import Draft
from memwarden.domain.reconcile_entities import Entities, hidden_entities
from memwarden.domain.reconcile_netting import last_wins, net_of_corrections
from memwarden.domain.reconcile_notes import JUDGE_NOTE_ABOUT, Notes
from memwarden.domain.reconcile_rules import IdFactory, Incoming, Known, Plan
from memwarden.domain.reconcile_slots import Slots

__all__ = ["JUDGE_NOTE_ABOUT", "last_wins", "net_of_corrections", "plan"]


def plan(
    items: Sequence[Incoming],
    known: Known,
    new_id: IdFactory,
    *,
    write_held: bool = False,
    warned: Mapping[str, Sequence[str]] | None = None,
) -> Plan:
    """Reconcile one write's items (entities first, corrections after the facts they touch)."""
    netted = net_of_corrections(last_wins(items), write_held)
    draft = Draft(new_id, write_held)
    entities = Entities(known, draft, hidden_entities([item for item, _keep in netted]))
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
