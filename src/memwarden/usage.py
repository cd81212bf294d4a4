"""Usage bookings: every model call's tokens, kept until the use case books them.

A `Bookings` is the UsageSink a use case hands to its model calls (extraction, chat,
embedding); it writes them to the Context's usage in the use case's transaction (`write`),
or in one of their own as soon as they must count (`flush`): a write's extraction tokens
are booked once extraction ends, so the checks before its later calls see them and a write
refused after them still pays for them (see `budget.py` for the rule that reads them back).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from memwarden.models.base import Usage
from memwarden.store import audit
from memwarden.store.db import Conn, Database


@dataclass
class Bookings:
    """A UsageSink that keeps every model call's usage to book in the write transaction."""

    entries: list[tuple[str, str, Usage]] = field(default_factory=list)

    async def book(self, stage: str, model: str, usage: Usage) -> None:
        self.entries.append((stage, model, usage))

    @property
    def total_tokens(self) -> int:
        """Spent and not booked yet: what a budget check counts beside the booked usage."""
        return sum(usage.total_tokens for _, _, usage in self.entries)

    async def write(self, conn: Conn, context_id: uuid.UUID) -> None:
        for stage, model, usage in self.entries:
            await audit.book_usage(
                conn,
                context_id=context_id,
                stage=stage,
                model=model,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
            )

    async def flush(self, db: Database, context_id: uuid.UUID) -> None:
        """Book what is kept now, in a transaction of its own, and forget it (so the use
        case's own `write` does not book it twice)."""
        if not self.entries:
            return
        async with db.transaction() as conn:
            await self.write(conn, context_id)
        self.entries.clear()
