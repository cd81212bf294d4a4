"""The judge's token usage: checked against the Context's budget, booked after the verdict.

Bookings are collected during the model calls and written only once the verdict is
known, because a deny must leave no trace at all, usage included. Everything else is
booked in its own transaction (the tokens were spent whether or not the write lands).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from memwarden.models.base import Usage
from memwarden.store import audit as audit_store
from memwarden.store.db import Conn, Database

STAGE = "judge"


@dataclass(frozen=True)
class Booking:
    model: str
    usage: Usage


@dataclass
class DeferredSink:
    """A UsageSink that remembers instead of writing; `flush` writes them later."""

    bookings: list[Booking] = field(default_factory=list)

    async def book(self, stage: str, model: str, usage: Usage) -> None:
        self.bookings.append(Booking(model, usage))

    @property
    def total_tokens(self) -> int:
        return sum(b.usage.total_tokens for b in self.bookings)


async def book(conn: Conn, context_id: uuid.UUID, sink: DeferredSink) -> None:
    """Write the collected bookings under the `judge` stage, in the caller's transaction."""
    for booking in sink.bookings:
        await audit_store.book_usage(
            conn,
            context_id=context_id,
            stage=STAGE,
            model=booking.model,
            prompt_tokens=booking.usage.prompt_tokens,
            completion_tokens=booking.usage.completion_tokens,
        )
    sink.bookings.clear()


async def flush(db: Database, context_id: uuid.UUID, sink: DeferredSink) -> None:
    """Book in a transaction of its own; nothing to do when no model was called."""
    if not sink.bookings:
        return
    async with db.transaction() as conn:
        await book(conn, context_id, sink)
