"""The plan a reconciliation is building, and its diff as the caller sees it (pure).

Every part of the planner adds records and reports diff items through one `Draft`, so
the shape of each diff entry is written here once and an item is reported at most once.
"""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.domain.reconcile_rules import IdFactory, NewRecord, Plan

DIFF_KEYS = (
    "entities",
    "attributes",
    "relations",
    "actions",
    "instructions",
    "uncertainties",
    "corrections",
)


class Draft:
    """Records to write, supersedes, and the diff; `write_held`: the whole write is held;
    `derived`: the write is a pass's or a reflection's, built from `sources`."""

    def __init__(
        self,
        new_id: IdFactory,
        write_held: bool,
        derived: bool = False,
        sources: frozenset[uuid.UUID] = frozenset(),
    ) -> None:
        self.new_id, self.write_held = new_id, write_held
        self.derived, self.sources = derived, sources
        self.plan = Plan(diff={k: [] for k in DIFF_KEYS})
        self._reported: set[tuple[str, uuid.UUID]] = set()

    def add(self, rec: NewRecord) -> NewRecord:
        self.plan.records.append(rec)
        return rec

    def report(self, key: str, item_id: uuid.UUID, entry: dict[str, Any]) -> None:
        """The first report of an item wins; later mentions in the same write add nothing."""
        if (key, item_id) not in self._reported:
            self._reported.add((key, item_id))
            self.plan.diff[key].append({"id": str(item_id), **entry})

    def correction(self, entry: dict[str, Any]) -> None:
        """Corrections are listed each time they are made (they have no id of their own)."""
        self.plan.diff["corrections"].append(entry)


def entity_entry(name: str, etype: str, category: str, is_new: bool) -> dict[str, Any]:
    return {"name": name, "entityType": etype, "memoryCategory": category, "isNew": is_new}


def attribute_entry(
    entity_id: uuid.UUID, key: str, value: str, category: str, is_new: bool
) -> dict[str, Any]:
    return {
        "entityId": str(entity_id),
        "key": key,
        "value": value,
        "memoryCategory": category,
        "isNew": is_new,
    }


def correction_entry(
    new_id: uuid.UUID | None,
    entity: str,
    entity_id: uuid.UUID,
    key: str,
    old: Any,
    new: str,
    applied: bool,
    gone: list[str],
) -> dict[str, Any]:
    return {
        "id": str(new_id) if new_id else None,
        "entity": entity,
        "entityId": str(entity_id),
        "key": key,
        "oldValue": old,
        "newValue": new,
        "applied": applied,
        "supersededIds": gone,
    }
