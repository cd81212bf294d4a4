"""Records as the replacement rule reads them (SQL in queries/replacement.sql)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from memwarden.store.db import Conn
from memwarden.store.rows import fetch_all


@dataclass(frozen=True)
class HolderRow:
    id: uuid.UUID
    scope_path: str
    visibility: str
    owner_subject: str
    source_kind: str
    served: bool
    sources: list[uuid.UUID]


async def holders(
    conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, HolderRow]:
    """The records named (share-locked until the transaction ends), by id."""
    if not ids:
        return {}
    rows = await fetch_all(
        conn, "replacement_holders", HolderRow, {"context_id": context_id, "ids": list(ids)}
    )
    return {r.id: r for r in rows}
