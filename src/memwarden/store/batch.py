"""Several named statements in one round trip (psycopg pipeline mode).

/query runs up to six candidate queries and then two row reads and the traffic upsert; sent
one by one, each waits for the previous answer, and on a busy machine every wait is a
scheduling delay. A pipeline sends them together and reads the answers in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memwarden.store.citus import generic_plans_allowed
from memwarden.store.db import Conn
from memwarden.store.queries import GENERIC, prepare_flag, q

Row = dict[str, Any]
Statement = tuple[str, dict[str, Any]]  # (query block name, parameters)

GENERIC_PLANS: Statement = ("set_plan_cache_mode", {"mode": "force_generic_plan", "local": False})
PLANNER_CHOICE: Statement = ("set_plan_cache_mode", {"mode": "auto", "local": False})


def with_plan_modes(statements: Sequence[Statement]) -> list[tuple[Statement, bool]]:
    """The statements to send, each marked whether its rows are the caller's: GENERIC ones
    run under generic plans, set before them and reset before any other and at the end,
    so a walk that needs its custom plan never inherits the setting."""
    sent: list[tuple[Statement, bool]] = []
    generic = False
    for statement in statements:
        wanted = statement[0] in GENERIC
        if wanted != generic:
            sent.append((GENERIC_PLANS if wanted else PLANNER_CHOICE, False))
            generic = wanted
        sent.append((statement, True))
    if generic:
        sent.append((PLANNER_CHOICE, False))
    return sent


async def run_all(conn: Conn, statements: Sequence[Statement]) -> list[list[Row]]:
    """Each statement's rows (empty for one that returns none), in order."""
    if not statements:
        return []
    if generic_plans_allowed(conn):
        sent = with_plan_modes(statements)
    else:  # on Citus: the planner's choice, so each statement is routed (store/citus.py)
        sent = [(statement, True) for statement in statements]
    if len(sent) == 1:
        name, params = statements[0]
        cur = await conn.execute(q(name), params, prepare=prepare_flag(name))
        return [await cur.fetchall() if cur.description else []]
    # One implicit transaction until the pipeline's sync: should a statement fail, its
    # rollback also undoes the setting, so a failure cannot leave generic plans behind.
    async with conn.pipeline():
        cursors = [
            await conn.execute(q(name), params, prepare=prepare_flag(name))
            for (name, params), _ in sent
        ]
    results = [await cur.fetchall() if cur.description else [] for cur in cursors]
    return [rows for rows, (_, kept) in zip(results, sent, strict=True) if kept]
