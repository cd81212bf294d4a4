"""The reconciliation planner's state (pure): entities, attributes, supersedes, the diff.

`reconcile_plan` extends it with relations, actions, corrections and notes.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from memwarden.domain.reconcile_rules import (
    IdFactory,
    Incoming,
    Known,
    KnownFact,
    NewRecord,
    Plan,
    Supersede,
    human,
    is_multi_valued,
    normalise_key,
    normalise_name,
    normalise_value,
)

DIFF_KEYS = (
    "entities",
    "attributes",
    "relations",
    "actions",
    "instructions",
    "uncertainties",
    "corrections",
)


class PlannerBase:
    """Entities and attributes: the state a plan builds as it goes."""

    def __init__(self, known: Known, new_id: IdFactory, write_held: bool) -> None:
        self.known, self.new_id, self.write_held = known, new_id, write_held
        self.plan = Plan(diff={k: [] for k in DIFF_KEYS})
        self.names: dict[str, tuple[uuid.UUID, str]] = {}
        self.facts: list[KnownFact] = list(known.facts)
        self.gone: set[uuid.UUID] = set()
        self.notes = dict(known.notes)
        self.reported: set[tuple[str, uuid.UUID]] = set()

    def report(self, key: str, item_id: uuid.UUID, entry: dict[str, Any]) -> None:
        if (key, item_id) not in self.reported:
            self.reported.add((key, item_id))
            self.plan.diff[key].append({"id": str(item_id), **entry})

    def add(self, rec: NewRecord) -> NewRecord:
        self.plan.records.append(rec)
        return rec

    def live(self, kind: str, entity_id: uuid.UUID, key: str) -> list[KnownFact]:
        return [
            f
            for f in self.facts
            if f.kind == kind
            and f.entity_id == entity_id
            and f.key == key
            and f.id not in self.gone
        ]

    def supersede(
        self,
        old: Sequence[KnownFact],
        new_id: uuid.UUID | None,
        held: bool,
    ) -> list[str]:
        """A held row or write replaces nothing."""
        if held or self.write_held:
            return []
        for fact in old:
            self.gone.add(fact.id)
            self.plan.supersedes.append(Supersede(fact.id, new_id))
        return [str(f.id) for f in old]

    def entity(
        self,
        name: str,
        etype: str = "other",
        category: str = "context",
        held: bool = False,
        row_id: str | None = None,
    ) -> tuple[uuid.UUID, str] | None:
        norm = normalise_name(name)
        if not norm:
            return None
        if norm not in self.names:
            found = self.known.entities.get(norm)
            if found is not None:
                self.names[norm] = (found.id, found.name)
                self.report(
                    "entities",
                    found.id,
                    {
                        "name": found.name,
                        "entityType": found.entity_type,
                        "memoryCategory": found.category,
                        "isNew": False,
                    },
                )
            else:
                rec = self.add(
                    NewRecord(
                        self.new_id(),
                        "entity",
                        category,
                        {"name": name, "entityType": etype},
                        f"{name} ({etype})",
                        norm,
                        name,
                        held or self.write_held,
                        row_id,
                    )
                )
                self.names[norm] = (rec.id, name)
                self.report(
                    "entities",
                    rec.id,
                    {"name": name, "entityType": etype, "memoryCategory": category, "isNew": True},
                )
        return self.names[norm]

    def attribute(
        self,
        item: Incoming,
        d: Mapping[str, Any],
        force_old: str | None = None,
        keep: frozenset[str] = frozenset(),
    ) -> tuple[uuid.UUID | None, list[str]]:
        """`force_old`: the value a correction names as replaced; `keep`: values the same
        write asserts, which are never replaced."""
        key, value = normalise_key(d["key"]), str(d["value"])
        ident = normalise_value(value)
        ent = self.entity(d["entity"], held=item.held)
        if ent is None or not key or not ident:
            return None, []
        eid, ename = ent
        current = self.live("attribute", eid, key)
        category = d.get("memoryCategory", "context")
        same = next((f for f in current if f.ident == ident), None)
        replaced = [f for f in current if force_old and f.ident == force_old and f is not same]
        if same is not None:
            gone = self.supersede([f for f in replaced if f.ident not in keep], same.id, item.held)
            self.report(
                "attributes",
                same.id,
                {
                    "entityId": str(eid),
                    "key": key,
                    "value": value,
                    "memoryCategory": category,
                    "isNew": False,
                },
            )
            return same.id, gone
        held = item.held or self.write_held
        body = f"{ename} — {human(key)}: {value}"
        rec = self.add(
            NewRecord(
                self.new_id(),
                "attribute",
                category,
                {"entity": ename, "key": key, "value": value},
                body,
                ident,
                body,
                held,
                item.row_id,
                entity_id=eid,
                attr_key=key,
            )
        )
        self.facts.append(KnownFact(rec.id, "attribute", eid, key, ident))
        self.report(
            "attributes",
            rec.id,
            {
                "entityId": str(eid),
                "key": key,
                "value": value,
                "memoryCategory": category,
                "isNew": True,
            },
        )
        multi = is_multi_valued(key)
        targets = replaced or ([] if multi else current)
        return rec.id, self.supersede([f for f in targets if f.ident not in keep], rec.id, held)
