"""What memwarden does differently on a Citus coordinator (docs/scale.md#distribution).

One thing at run time: no forced generic plans. On plain PostgreSQL the write
transactions and /query's statements on the tables partitioned by Context ask for generic
plans (store/db.py, store/batch.py), which run-time pruning keeps on one partition. On a
Citus coordinator a generic plan leaves the Context a parameter when Citus plans the
statement, and Citus cannot route a join or a serving-gate function call on a parameter
("could not create distributed plan"); with the planner's own choice it sees the value and
sends the statement to the one shard that holds the Context.
"""

from __future__ import annotations

import weakref
from typing import Any

# Connections found on a Citus coordinator when the pool made them (store/db.py).
_ON_CITUS: weakref.WeakSet[Any] = weakref.WeakSet()

CITUS_PRESENT = "SELECT 1 FROM pg_extension WHERE extname = 'citus'"


async def note_connection(conn: Any) -> None:
    """Called once per new pooled connection: remember whether it reaches Citus."""
    cur = await conn.execute(CITUS_PRESENT)
    if await cur.fetchone() is not None:
        _ON_CITUS.add(conn)


def on_citus(conn: Any) -> bool:
    return conn in _ON_CITUS


def generic_plans_allowed(conn: Any) -> bool:
    """Whether forcing generic plans keeps statements on one Context's rows: yes on plain
    PostgreSQL (run-time pruning), no on Citus (the statement would not be routed)."""
    return conn not in _ON_CITUS
