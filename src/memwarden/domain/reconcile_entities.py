"""Entity resolution for one write (pure): one name is one entity.

A name the write already used resolves to the same entity; otherwise a known entity of
that normalised name is reused (reported as not new); otherwise a new entity is drafted.

A new entity is held when the write is, or when rows name it and every one of them is
held (whether or not the extraction listed the entity itself): it stays hidden with the
facts that are its only reason to exist, under the hold of the first of them, and the
first of their holds to be approved releases it. One live row naming it keeps it live.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from memwarden.domain.reconcile_draft import Draft, entity_entry
from memwarden.domain.reconcile_rules import Incoming, Known, NewRecord, normalise_name

Resolved = tuple[uuid.UUID, str]  # (entity id, display name)

# The fields by which a row names an entity (an action's object only when it is one).
NAMING_FIELDS = {
    "attribute": ("entity",),
    "relation": ("subject", "object"),
    "action": ("actor", "object"),
    "correction": ("entity",),
}


def hidden_entities(items: Sequence[Incoming]) -> dict[str, str]:
    """Normalised names that only held rows name -> the first such row's id."""
    naming: dict[str, list[Incoming]] = {}
    for item in items:
        for field in NAMING_FIELDS.get(item.kind, ()):
            norm = normalise_name(str(item.data.get(field) or ""))
            if norm:
                naming.setdefault(norm, []).append(item)
    return {norm: rows[0].row_id for norm, rows in naming.items() if all(r.held for r in rows)}


class Entities:
    def __init__(self, known: Known, draft: Draft, hidden: Mapping[str, str] | None = None) -> None:
        """`hidden`: `hidden_entities` of the write's items."""
        self.known, self.draft = known, draft
        self.hidden = dict(hidden or {})
        self.names: dict[str, Resolved] = {}

    def resolve(
        self,
        name: str,
        etype: str = "other",
        category: str = "context",
        row_id: str | None = None,
    ) -> Resolved | None:
        """The entity a name stands for, drafting it when nothing known matches."""
        norm = normalise_name(name)
        if not norm:
            return None
        if norm not in self.names:
            found = self.known.entities.get(norm)
            if found is not None:
                self.names[norm] = (found.id, found.name)
                self.draft.report(
                    "entities",
                    found.id,
                    entity_entry(found.name, found.entity_type, found.category, False),
                )
            else:
                rec = self.draft.add(
                    NewRecord(
                        self.draft.new_id(),
                        "entity",
                        category,
                        {"name": name, "entityType": etype},
                        f"{name} ({etype})",
                        norm,
                        name,
                        self.draft.write_held or norm in self.hidden,
                        row_id,
                        held_with=self.hidden.get(norm),
                    )
                )
                self.names[norm] = (rec.id, name)
                self.draft.report("entities", rec.id, entity_entry(name, etype, category, True))
        return self.names[norm]

    def lookup(self, name: str) -> Resolved | None:
        """An entity the name already stands for (in this write or known), never a new one."""
        norm = normalise_name(name)
        if found := self.names.get(norm):
            return found
        k = self.known.entities.get(norm)
        return (k.id, k.name) if k else None
