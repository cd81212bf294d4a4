"""Admission: how many requests one process serves at once, in all and per Context, and
how many request-body bytes one Context has in flight.

A request over a budget is refused at once with `Retry-After` (503 for the process, 429
for one Context) instead of waiting in a queue that has no bound: a client that is told
to come back can go to another process, and one busy tenant cannot take the node.
Budgets count in-flight requests of this process (one event loop, so no lock); 0 turns a
budget off. See docs/scale.md#connection-budget-and-back-pressure.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

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


class ContextBytesBusy(AppError):
    """One Context has as many request-body bytes in flight in this process as it may."""

    status = 429
    code = "context_bytes_busy"
    retry_after_s = RETRY_AFTER_S


def context_bytes_busy(limit: int) -> ContextBytesBusy:
    """The one refusal for a Context at its byte budget (HTTP adds the Retry-After header)."""
    return ContextBytesBusy(
        "this Context has as many request bytes in flight as it may; retry shortly",
        extra={"limit": limit, "retry_after_s": RETRY_AFTER_S},
    )


# Where the body-limit middleware leaves the size of a chunked body it has read (api/
# middleware.py), for the byte budget, which cannot know it from the headers.
BODY_BYTES_KEY = "memwarden.body_bytes"


def body_bytes(scope: Mapping[str, Any]) -> int:
    """The size of a request's body: its declared Content-Length or, for a chunked body,
    the bytes the body-limit middleware read; 0 when neither is known (no body)."""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"content-length":
            try:
                return max(0, int(value))
            except ValueError:
                return 0  # the body-limit middleware has answered 400 already
    return int(scope.get(BODY_BYTES_KEY, 0))


@dataclass
class Admission:
    """The in-flight counters of one process, and the budgets they are held to."""

    max_in_flight: int = 0
    context_max_in_flight: int = 0
    context_max_bytes_in_flight: int = 0
    in_flight: int = 0
    per_context: Counter[uuid.UUID] = field(default_factory=Counter)
    bytes_per_context: Counter[uuid.UUID] = field(default_factory=Counter)

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

    def enter_bytes(self, context_id: uuid.UUID, size: int) -> bool:
        """Count a request body of `size` bytes for a Context; False (nothing counted) when
        the Context has other bodies in flight and this one would take it past its budget.
        A body alone is always admitted, so a request as large as its route allows is
        served however the budget is set."""
        held = self.bytes_per_context[context_id]
        budget = self.context_max_bytes_in_flight
        if budget and held and held + size > budget:
            return False
        if size > 0:
            self.bytes_per_context[context_id] = held + size
        return True

    def leave_bytes(self, context_id: uuid.UUID, size: int) -> None:
        left = self.bytes_per_context[context_id] - size
        if left > 0:
            self.bytes_per_context[context_id] = left
        else:
            self.bytes_per_context.pop(context_id, None)
