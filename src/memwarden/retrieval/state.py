"""/state: what an agent should hold in mind now: standing instructions, open
uncertainties and the most recent actions, all behind the shared serving gate."""

from __future__ import annotations

import uuid
from datetime import datetime

from memwarden.domain.grants import Caller
from memwarden.retrieval import traffic
from memwarden.retrieval.as_of import parse_moment
from memwarden.retrieval.reader import reader_for, render_record
from memwarden.retrieval.responses import StateResponse
from memwarden.services import Services
from memwarden.store import recall as store

LIMITS = {"instruction": 50, "uncertainty": 50, "action": 20}


async def get_state(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    scope: list[str] | None = None,
    as_of: datetime | str | None = None,
) -> StateResponse:
    """With `as_of`: the state as it would have been served then (not counted as traffic)."""
    who = reader_for(caller, context_id, scope)
    at = parse_moment(as_of)
    async with services.db.connection() as conn:
        rows = {
            kind: await store.newest(conn, who, kind, limit, at) for kind, limit in LIMITS.items()
        }
        if at is None:
            await traffic.count(conn, context_id, [r.id for found in rows.values() for r in found])
    return StateResponse(
        instructions=[render_record(r) for r in rows["instruction"]],
        uncertainties=[render_record(r) for r in rows["uncertainty"]],
        actions=[render_record(r) for r in rows["action"]],
    )
