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
from memwarden.store.db import Conn, idle


def statements(context_id: uuid.UUID, record_ids: Iterable[uuid.UUID]) -> list[Statement]:
    """The upsert, one statement, for a caller that sends it after its own reads in
    autocommit mode (empty when there is nothing to count): it turns synchronous commit off
    for the transaction it runs in, which must be its own or a read's, never a write's."""
    return store.count_recall(context_id, list(record_ids))


async def count(conn: Conn, context_id: uuid.UUID, record_ids: Iterable[uuid.UUID]) -> None:
    """On an autocommit connection outside any transaction: the count commits by itself."""
    if not idle(conn):
        raise RuntimeError("recall traffic is counted in its own transaction, not inside one")
    await run_all(conn, statements(context_id, record_ids))
