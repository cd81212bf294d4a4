"""Recall traffic: every memory record returned to a client counts once per request and day.

Hygiene reads these counts (a memory nobody recalls is a candidate for review). Chunks are
transcript, not memory, and are not counted. One upsert per request, on the read's own
connection after the read, so counting never changes what was served.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from memwarden.store import recall as store
from memwarden.store.db import Conn


async def count(conn: Conn, context_id: uuid.UUID, record_ids: Iterable[uuid.UUID]) -> None:
    await store.count_recall(conn, context_id, list(record_ids))
