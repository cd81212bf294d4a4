"""A Context's token budget: one rule for every model call (judge, extraction, chat).

Booked usage since the start of the period (the day, or the month) is compared with
`token_budget.limit` before each call; at or over it the call is refused with 429, so a
Context never starts spending past its limit (one call in flight may still finish). A use
case that books its usage at its end counts what it spent so far too (`check_before_call`),
and books it when refused: the tokens were spent whatever becomes of the write.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from memwarden.config import TokenBudget
from memwarden.errors import BudgetExhausted
from memwarden.store import audit
from memwarden.store.db import Conn, Database
from memwarden.usage import Bookings


def period_start(period: str, today: date | None = None) -> date:
    today = today or datetime.now(UTC).date()
    return today if period == "day" else today.replace(day=1)


async def check_budget(
    conn: Conn, context_id: uuid.UUID, budget: TokenBudget, pending: int = 0
) -> None:
    """429 once the period's booked tokens, with `pending` ones spent but not booked yet,
    reach the limit (checked before a model call)."""
    if budget.limit is None:
        return
    used = await audit.tokens_since(conn, context_id, period_start(budget.period)) + pending
    if used >= budget.limit:
        raise BudgetExhausted(
            "the Context's token budget for this period is spent",
            extra={"limit": budget.limit, "used": used, "period": budget.period},
        )


async def check_before_call(
    db: Database, context_id: uuid.UUID, budget: TokenBudget, sink: Bookings | None = None
) -> None:
    """Before one model call, outside any transaction: what `sink` holds counts; refused,
    it is booked now, in a transaction of its own, and the call is not made (429)."""
    if budget.limit is None:
        return
    pending = sink.total_tokens if sink is not None else 0
    try:
        async with db.connection() as conn:
            await check_budget(conn, context_id, budget, pending)
    except BudgetExhausted:
        if sink is not None:
            await sink.flush(db, context_id)
        raise
