"""Sans-I/O plans: an operation written once as a generator of memory-contract requests,
run by the sync client or the async one.

A plan yields `Request(name, kwargs)`; the runner calls `client.memory.<name>(**kwargs)`
and sends the answer back into the plan, or throws the client's error into it, so the
plan decides what a 409 or a 404 means and both clients behave the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from memwarden_client.errors import MemwardenError

T = TypeVar("T")


@dataclass(frozen=True)
class Request:
    name: str
    kwargs: dict[str, Any]


Plan = Generator[Request, Any, T]


def run(memory: Any, plan: Plan[T], local: Mapping[str, Callable[..., Any]] | None = None) -> T:
    """Run a plan on a sync client's `memory` verbs (and `local` ones, such as an
    embedding function, served in this process)."""
    try:
        request = next(plan)
        while True:
            verb = (local or {}).get(request.name) or getattr(memory, request.name)
            try:
                answer = verb(**request.kwargs)
            except MemwardenError as exc:
                request = plan.throw(exc)
            else:
                request = plan.send(answer)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def arun(
    memory: Any, plan: Plan[T], local: Mapping[str, Callable[..., Awaitable[Any]]] | None = None
) -> T:
    """Run a plan on an async client's `memory` verbs (and async `local` ones)."""
    try:
        request = next(plan)
        while True:
            verb = (local or {}).get(request.name) or getattr(memory, request.name)
            try:
                answer = await verb(**request.kwargs)
            except MemwardenError as exc:
                request = plan.throw(exc)
            else:
                request = plan.send(answer)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
