"""/profile: what is currently known about one entity, and optionally how it changed.

The entity is named by id or by name (normalised as reconciliation does); every visible
entity of that name contributes, so the same person in two scopes reads as one profile.
"""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.domain.grants import Caller
from memwarden.domain.reconcile_rules import normalise_name
from memwarden.errors import InvalidInput, NotFound
from memwarden.retrieval import traffic
from memwarden.retrieval.reader import reader_for, render_record
from memwarden.services import Services
from memwarden.store import recall as store
from memwarden.store.recall import RecordRow
from memwarden.text import require_storable

MAX_FACTS = 500


def _as_uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def _fact(row: RecordRow, ids: set[uuid.UUID]) -> dict[str, Any]:
    out = render_record(row)
    if row.kind != "attribute":
        out["direction"] = "out" if row.entity_id in ids else "in"
    return out


async def get_profile(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    entity: str,
    history: bool = False,
    scope: list[str] | None = None,
) -> dict[str, Any]:
    who = reader_for(caller, context_id, scope)
    name = require_storable(entity, "entity").strip()
    if not name:
        raise InvalidInput("entity must name an entity or give its id", field="entity")
    entity_id = _as_uuid(name)
    async with services.db.connection() as conn:
        found = await store.entities(
            conn, who, entity_id, None if entity_id else normalise_name(name)
        )
        if not found:
            raise NotFound("entity not found", field="entity")
        ids = {r.id for r in found}
        facts = await store.profile_facts(conn, who, list(ids), history, MAX_FACTS)
        await traffic.count(conn, context_id, [*ids, *(f.id for f in facts if f.serving == "live")])
    current = [f for f in facts if f.serving == "live"]
    main = found[0]
    return {
        "entity": {
            "id": str(main.id),
            "name": main.content.get("name"),
            "entityType": main.content.get("entityType"),
            "memoryCategory": main.memory_category,
            "scope": {"path": main.scope_path, "visibility": main.visibility},
        },
        "entityIds": [str(r.id) for r in found],
        "attributes": [_fact(f, ids) for f in current if f.kind == "attribute"],
        "relations": [_fact(f, ids) for f in current if f.kind == "relation"],
        "actions": [_fact(f, ids) for f in current if f.kind == "action"],
        "history": [_fact(f, ids) for f in facts if f.serving != "live"] if history else [],
    }
