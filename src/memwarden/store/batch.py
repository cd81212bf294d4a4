"""Several named statements in one round trip (psycopg pipeline mode).

/query runs up to six candidate queries and then two row reads and the traffic upsert; sent
one by one, each waits for the previous answer, and on a busy machine every wait is a
scheduling delay. A pipeline sends them together and reads the answers in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memwarden.store.db import Conn
from memwarden.store.queries import prepare_flag, q

Row = dict[str, Any]
Statement = tuple[str, dict[str, Any]]  # (query block name, parameters)


async def run_all(conn: Conn, statements: Sequence[Statement]) -> list[list[Row]]:
    """Each statement's rows (empty for one that returns none), in order."""
    if not statements:
        return []
    if len(statements) == 1:
        name, params = statements[0]
        cur = await conn.execute(q(name), params, prepare=prepare_flag(name))
        return [await cur.fetchall() if cur.description else []]
    async with conn.pipeline():
        cursors = [
            await conn.execute(q(name), params, prepare=prepare_flag(name))
            for name, params in statements
        ]
    return [await cur.fetchall() if cur.description else [] for cur in cursors]
