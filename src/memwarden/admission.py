"""Admission: how many requests one process serves at once, in all and per Context.

A request over a budget is refused at once with `Retry-After` (503 for the process, 429
for one Context) instead of waiting in a queue that has no bound: a client that is told
to come back can go to another process, and one busy tenant cannot take the node.
Budgets count in-flight requests of this process (one event loop, so no lock); 0 turns a
budget off. See docs/scale.md#connection-budget-and-back-pressure.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field

from memwarden.errors import AppError

RETRY_AFTER_S = 1  # what a refused client is told to wait; the budgets free up in ms


class Overloaded(AppError):
    """The process is at its budget (requests in flight, or database connections)."""

    status = 503
    code = "overloaded"
    retry_after_s = RETRY_AFTER_S


class ContextBusy(AppError):
    """One Context has as many requests in flight in this process as it may."""

    status = 429
    code = "context_busy"
    retry_after_s = RETRY_AFTER_S


def context_busy(limit: int) -> ContextBusy:
    """The one refusal for a Context at its budget (HTTP adds the Retry-After header)."""
    return ContextBusy(
        "this Context has as many requests in flight as it may; retry shortly",
        extra={"limit": limit, "retry_after_s": RETRY_AFTER_S},
    )


@dataclass
class Admission:
    """The in-flight counters of one process, and the two budgets they are held to."""

    max_in_flight: int = 0
    context_max_in_flight: int = 0
    in_flight: int = 0
    per_context: Counter[uuid.UUID] = field(default_factory=Counter)

    def enter(self) -> bool:
        """Count one more request in the process; False (nothing counted) when full."""
        if self.max_in_flight and self.in_flight >= self.max_in_flight:
            return False
        self.in_flight += 1
        return True

    def leave(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)

    def enter_context(self, context_id: uuid.UUID) -> bool:
        """Count one more request of a Context; False (nothing counted) when it is full."""
        if self.context_max_in_flight and self.per_context[context_id] >= (
            self.context_max_in_flight
        ):
            return False
        self.per_context[context_id] += 1
        return True

    def leave_context(self, context_id: uuid.UUID) -> None:
        left = self.per_context[context_id] - 1
        if left > 0:
            self.per_context[context_id] = left
        else:
            del self.per_context[context_id]  # a Counter that forgets idle Contexts
