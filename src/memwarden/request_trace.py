"""What the access log may say about the request in flight.

A deny must leave no trace, the service's own access line included. The middleware opens
a trace per request; raising a deny anywhere below it marks the trace silent, and the
middleware then writes no line for that request. Outside a request (a worker) nothing is
logged per request anyway, so marking is a no-op there.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class RequestTrace:
    silent: bool = False


_current: ContextVar[RequestTrace | None] = ContextVar("memwarden_request_trace", default=None)


def open_trace() -> RequestTrace:
    """A fresh trace for the request now starting (shared by every task it spawns)."""
    trace = RequestTrace()
    _current.set(trace)
    return trace


def silence() -> None:
    """Leave no access-log line for the current request."""
    trace = _current.get()
    if trace is not None:
        trace.silent = True
