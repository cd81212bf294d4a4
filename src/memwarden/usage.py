"""Usage bookings: every model call's tokens, kept until the use case's transaction.

A `Bookings` is the UsageSink a use case hands to its model calls (extraction, chat,
embedding); it writes them to the Context's usage in the same transaction as the rest of
the write, so a failed write books nothing it did not also keep (see `budget.py` for the
rule that reads them back).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from memwarden.models.base import Usage
from memwarden.store import audit
from memwarden.store.db import Conn


@dataclass
class Bookings:
    """A UsageSink that keeps every model call's usage to book in the write transaction."""

    entries: list[tuple[str, str, Usage]] = field(default_factory=list)

    async def book(self, stage: str, model: str, usage: Usage) -> None:
        self.entries.append((stage, model, usage))

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
