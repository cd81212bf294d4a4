"""A request's total deadline for model calls, across stages and retries.

A per-call timeout alone lets one write wait for it on every attempt of every stage,
and an httpx read timeout resets on each byte, so a trickling model could hold a write
for minutes. A use case opens `request_deadline(seconds)`; every model call under it
is bounded by the time left (the per-attempt timeout, the retries and the whole body).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("memwarden_request_deadline", default=None)


@contextmanager
def request_deadline(seconds: float | None) -> Iterator[None]:
    """Bound model calls inside to `seconds` from now; an outer, earlier deadline stays."""
    if seconds is None or seconds <= 0:
        yield
        return
    at = time.monotonic() + seconds
    outer = _deadline.get()
    token = _deadline.set(at if outer is None else min(outer, at))
    try:
        yield
    finally:
        _deadline.reset(token)


def time_left() -> float | None:
    """Seconds left before the current deadline (never negative), or None when unbounded."""
    at = _deadline.get()
    if at is None:
        return None
    return max(0.0, at - time.monotonic())
