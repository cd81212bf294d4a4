"""What `GET /whoami` reads about the presented key beyond its authentication row."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from memwarden.store.db import Conn
from memwarden.store.rows import fetch_one


@dataclass(frozen=True)
class KeyIdentity:
    """The key's Context name and its own narrowing (capabilities, scope, expiry)."""

    context_name: str
    capabilities: list[str]
    scope_prefix: str
    expires_at: datetime | None
    created_at: datetime


async def key_identity(conn: Conn, context_id: uuid.UUID, key_id: uuid.UUID) -> KeyIdentity | None:
    return await fetch_one(
        conn, "whoami_key", KeyIdentity, {"context_id": context_id, "id": key_id}
    )
