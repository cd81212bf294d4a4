"""A Context's token budget: one rule for every model call (judge, extraction, chat).

Booked usage since the start of the period (the day, or the month) is compared with
`token_budget.limit` before a call; at or over it the call is refused with 429, so a
Context never starts spending past its limit (one call in flight may still finish).
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from memwarden.config import TokenBudget
from memwarden.errors import BudgetExhausted
from memwarden.store import audit
from memwarden.store.db import Conn


def period_start(period: str, today: date | None = None) -> date:
    today = today or datetime.now(UTC).date()
    return today if period == "day" else today.replace(day=1)


async def check_budget(conn: Conn, context_id: uuid.UUID, budget: TokenBudget) -> None:
    """429 once the period's booked tokens reach the limit (checked before a model call)."""
    if budget.limit is None:
        return
    used = await audit.tokens_since(conn, context_id, period_start(budget.period))
    if used >= budget.limit:
        raise BudgetExhausted(
            "the Context's token budget for this period is spent",
            extra={"limit": budget.limit, "used": used, "period": budget.period},
        )
