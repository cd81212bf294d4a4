"""Recall traffic: every memory record returned to a client counts once per request and day.

Hygiene reads these counts (a memory nobody recalls is a candidate for review). Chunks are
transcript, not memory, and are not counted. One upsert per request, on the read's own
connection after the read, so counting never changes what was served.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from memwarden.store import recall as store
from memwarden.store.batch import Statement, run_all
from memwarden.store.db import Conn


def statement(context_id: uuid.UUID, record_ids: Iterable[uuid.UUID]) -> Statement | None:
    """The upsert, for a caller that sends it with its own reads (None: nothing to count)."""
    return store.count_recall(context_id, list(record_ids))


async def count(conn: Conn, context_id: uuid.UUID, record_ids: Iterable[uuid.UUID]) -> None:
    upsert = statement(context_id, record_ids)
    if upsert is not None:
        await run_all(conn, [upsert])
