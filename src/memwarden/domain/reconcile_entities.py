"""Entity resolution for one write (pure): one name is one entity.

A name the write already used resolves to the same entity; otherwise a known entity of
that normalised name is reused (reported as not new); otherwise a new entity is drafted.
"""

from __future__ import annotations

import uuid

from memwarden.domain.reconcile_draft import Draft, entity_entry
from memwarden.domain.reconcile_rules import Known, NewRecord, normalise_name

Resolved = tuple[uuid.UUID, str]  # (entity id, display name)


class Entities:
    def __init__(self, known: Known, draft: Draft) -> None:
        self.known, self.draft = known, draft
        self.names: dict[str, Resolved] = {}

    def resolve(
        self,
        name: str,
        etype: str = "other",
        category: str = "context",
        held: bool = False,
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
                        held or self.draft.write_held,
                        row_id,
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
