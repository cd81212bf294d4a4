"""The one request/response layer under the sync and the async clients.

A route is described once as a `Call` (method, path, body, how to read the answer,
whether sending it twice is harmless); `SyncRunner` and `AsyncRunner` send it, retry it
by the same `RetryPolicy`, and turn error answers into exceptions the same way. The
client classes bind each `Call` builder as a method with `op`/`aop` (and `pages`/
`apages` for lists that follow `next_cursor`), so both clients have the same verbs.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, Self, TypeVar, overload
from urllib.parse import quote

import httpx

from memwarden_client.errors import ConnectionFailed, error_from_response

T = TypeVar("T")
P = ParamSpec("P")

USER_AGENT = "memwarden-client-python"
RETRYABLE_STATUSES = frozenset({429, 503})
CHUNK = 64 * 1024


class ContextUnresolved(Exception):
    """A builder needed the Context id before the client learnt it: the method binding
    asks `GET /whoami` once and builds the call again (never seen by a caller)."""


@dataclass
class Ctx:
    """What a call builder may read from its client: the Context the key belongs to.

    Given to the client, or learnt from `GET /whoami` by the first call that names it
    (`learn`); the memory contract and the change feed never need it.
    """

    context_id: str | None

    def cid(self) -> str:
        if not self.context_id:
            raise ContextUnresolved
        return seg(self.context_id)

    def learn(self, context_id: str) -> None:
        self.context_id = str(context_id)


def seg(value: object) -> str:
    """One path segment, quoted whatever it holds."""
    return quote(str(value), safe="")


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and how to read its answer."""

    method: str
    path: str
    parse: Callable[[Any], T]
    params: Sequence[tuple[str, str]] = ()
    json: Any = None
    content: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    idempotent: bool = False
    progress: Callable[[int, int], None] | None = None
    also_ok: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Paged(Generic[T]):
    """A list route: the call for a cursor, and the items of one page."""

    call: Callable[[str | None], Call[Any]]
    items: Callable[[Any], Iterable[T]]


@dataclass(frozen=True)
class RetryEvent:
    """Handed to `on_retry` before each wait: what failed, and how long the client waits."""

    method: str
    path: str
    attempt: int
    wait_s: float
    status: int | None
    code: str | None


@dataclass(frozen=True)
class RetryPolicy:
    """When a failed call is sent again, and after how long.

    memwarden answers 429 and 503 with `Retry-After` when an admission budget refuses a
    request (requests or bytes in flight, database connections, statement time, waiting
    documents): docs/scale.md says each such refusal comes before the request has any
    effect on memory (before the body is read, or with its transaction rolled back), so
    every call, writes included, is sent again after the server's `Retry-After` (at most
    `max_retries` times, and never when it asks for more than `max_retry_wait` seconds).
    A 429 without `Retry-After` is a spent token budget: not retried. Anything else is
    sent again only when the call is idempotent (reads): a 502/503/504 without
    `Retry-After` or a connection that broke, after `backoff` seconds doubled each time.
    A connection that could not be opened sent nothing, so any call is retried then.
    """

    max_retries: int = 3
    backoff: float = 0.5
    max_retry_wait: float = 30.0

    def after_status(self, resp: httpx.Response, attempt: int, idempotent: bool) -> float | None:
        if attempt >= self.max_retries:
            return None
        wait = retry_after(resp)
        if resp.status_code in RETRYABLE_STATUSES and wait is not None:
            return wait if wait <= self.max_retry_wait else None
        if idempotent and resp.status_code in (502, 503, 504):
            return self.backoff * 2**attempt
        return None

    def after_error(
        self, exc: httpx.TransportError, attempt: int, idempotent: bool
    ) -> float | None:
        if attempt >= self.max_retries:
            return None
        if idempotent or isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
            return self.backoff * 2**attempt
        return None


def retry_after(resp: httpx.Response) -> float | None:
    """`Retry-After` in seconds (delta-seconds or an HTTP date), None when absent."""
    value = resp.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _error_code(resp: httpx.Response) -> str | None:
    try:
        body = resp.json()
    except ValueError:
        return None
    detail = body.get("error") if isinstance(body, dict) else None
    return str(detail.get("code")) if isinstance(detail, dict) else None


def check(resp: httpx.Response) -> httpx.Response:
    if resp.is_success:
        return resp
    raise error_from_response(resp, retry_after(resp))


def decode(call: Call[T], resp: httpx.Response) -> T:
    if resp.status_code not in call.also_ok:
        check(resp)
    return call.parse(resp.json() if resp.content else None)


def _failed(exc: httpx.TransportError) -> ConnectionFailed:
    kind = "timeout" if isinstance(exc, httpx.TimeoutException) else "connection_error"
    return ConnectionFailed(0, kind, f"{type(exc).__name__}: no answer from the server")


def _body_chunks(call: Call[Any]) -> Iterator[bytes]:
    data = call.content or b""
    total = len(data)
    if call.progress:
        call.progress(0, total)
    for start in range(0, total, CHUNK):
        piece = data[start : start + CHUNK]
        yield piece
        if call.progress:
            call.progress(min(start + CHUNK, total), total)


async def _abody_chunks(call: Call[Any]) -> AsyncIterator[bytes]:
    for piece in _body_chunks(call):
        yield piece


def _request(http: httpx.Client | httpx.AsyncClient, call: Call[Any], sync: bool) -> httpx.Request:
    headers = dict(call.headers)
    content: Any = None
    if call.content is not None:
        headers["Content-Length"] = str(len(call.content))
        content = _body_chunks(call) if sync else _abody_chunks(call)
    return http.build_request(
        call.method,
        call.path,
        params=list(call.params) or None,
        json=call.json,
        content=content,
        headers=headers,
    )


def _headers(token: str) -> dict[str, str]:
    from memwarden_client import __version__

    return {"Authorization": f"Bearer {token}", "User-Agent": f"{USER_AGENT}/{__version__}"}


def _timeout(timeout: float | httpx.Timeout) -> httpx.Timeout:
    return timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)


class SyncRunner:
    """Sends Calls over one httpx.Client (its connection pool is reused)."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        timeout: float | httpx.Timeout,
        retry: RetryPolicy,
        on_retry: Callable[[RetryEvent], None] | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.http = httpx.Client(
            base_url=url.rstrip("/"),
            headers=_headers(token),
            timeout=_timeout(timeout),
            transport=transport,
        )
        self.retry = retry
        self.on_retry = on_retry
        self.sleep = sleep

    def _wait(
        self, call: Call[Any], attempt: int, wait: float, resp: httpx.Response | None
    ) -> None:
        if self.on_retry:
            status = resp.status_code if resp is not None else None
            code = _error_code(resp) if resp is not None else None
            self.on_retry(RetryEvent(call.method, call.path, attempt + 1, wait, status, code))
        self.sleep(wait)

    def send(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        """The answer to a call after the retries its policy allows (not yet checked)."""
        attempt = 0
        while True:
            try:
                resp = self.http.send(_request(self.http, call, True), stream=stream)
            except httpx.TransportError as exc:
                wait = self.retry.after_error(exc, attempt, call.idempotent)
                if wait is None:
                    raise _failed(exc) from exc
                self._wait(call, attempt, wait, None)
                attempt += 1
                continue
            wait = self.retry.after_status(resp, attempt, call.idempotent)
            if wait is None:
                return resp
            if stream:
                resp.read()
                resp.close()
            self._wait(call, attempt, wait, resp)
            attempt += 1

    def run(self, call: Call[T]) -> T:
        return decode(call, self.send(call))

    def pages(self, paged: Paged[T]) -> Iterator[T]:
        cursor: str | None = None
        while True:
            page = self.run(paged.call(cursor))
            yield from paged.items(page)
            cursor = page.next_cursor
            if not cursor:
                return

    def lines(self, call: Call[Any]) -> Iterator[str]:
        resp = self.send(call, stream=True)
        try:
            if not resp.is_success:
                resp.read()
                check(resp)
            yield from resp.iter_lines()
        finally:
            resp.close()

    def close(self) -> None:
        self.http.close()


class AsyncRunner:
    """The same over one httpx.AsyncClient."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        timeout: float | httpx.Timeout,
        retry: RetryPolicy,
        on_retry: Callable[[RetryEvent], None] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.http = httpx.AsyncClient(
            base_url=url.rstrip("/"),
            headers=_headers(token),
            timeout=_timeout(timeout),
            transport=transport,
        )
        self.retry = retry
        self.on_retry = on_retry
        self.sleep = sleep

    async def _wait(
        self, call: Call[Any], attempt: int, wait: float, resp: httpx.Response | None
    ) -> None:
        if self.on_retry:
            status = resp.status_code if resp is not None else None
            code = _error_code(resp) if resp is not None else None
            self.on_retry(RetryEvent(call.method, call.path, attempt + 1, wait, status, code))
        await self.sleep(wait)

    async def send(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        attempt = 0
        while True:
            try:
                resp = await self.http.send(_request(self.http, call, False), stream=stream)
            except httpx.TransportError as exc:
                wait = self.retry.after_error(exc, attempt, call.idempotent)
                if wait is None:
                    raise _failed(exc) from exc
                await self._wait(call, attempt, wait, None)
                attempt += 1
                continue
            wait = self.retry.after_status(resp, attempt, call.idempotent)
            if wait is None:
                return resp
            if stream:
                await resp.aread()
                await resp.aclose()
            await self._wait(call, attempt, wait, resp)
            attempt += 1

    async def run(self, call: Call[T]) -> T:
        resp = await self.send(call)
        return decode(call, resp)

    async def pages(self, paged: Paged[T]) -> AsyncIterator[T]:
        cursor: str | None = None
        while True:
            page = await self.run(paged.call(cursor))
            for item in paged.items(page):
                yield item
            cursor = page.next_cursor
            if not cursor:
                return

    async def lines(self, call: Call[Any]) -> AsyncIterator[str]:
        resp = await self.send(call, stream=True)
        try:
            if not resp.is_success:
                await resp.aread()
                check(resp)
            async for line in resp.aiter_lines():
                yield line
        finally:
            await resp.aclose()

    async def close(self) -> None:
        await self.http.aclose()


# Binding builders as methods ---------------------------------------------------------


class _HasSync(Protocol):
    _ctx: Ctx
    _runner: SyncRunner


class _HasAsync(Protocol):
    _ctx: Ctx
    _runner: AsyncRunner


def whoami_call() -> Call[Any]:
    """`GET /whoami` (the key's Context, principal and grants), from `_calls`."""
    from memwarden_client._calls import whoami

    return whoami()


def build_sync(
    obj: _HasSync, build: Callable[Concatenate[Ctx, P], T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """`build(obj._ctx, ...)`, asking the server for the key's Context first if the
    builder needs it and the client was not given it."""
    try:
        return build(obj._ctx, *args, **kwargs)
    except ContextUnresolved:
        obj._ctx.learn(obj._runner.run(whoami_call()).context_id)
        return build(obj._ctx, *args, **kwargs)


async def build_async(
    obj: _HasAsync, build: Callable[Concatenate[Ctx, P], T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """The same for the async client (concurrent first calls may each ask; same answer)."""
    try:
        return build(obj._ctx, *args, **kwargs)
    except ContextUnresolved:
        obj._ctx.learn((await obj._runner.run(whoami_call())).context_id)
        return build(obj._ctx, *args, **kwargs)


class op(Generic[P, T]):
    """A sync method from a Call builder: `remember = op(calls.remember)`."""

    def __init__(self, build: Callable[Concatenate[Ctx, P], Call[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, obj: _HasSync, owner: type | None = None) -> Callable[P, T]: ...

    def __get__(self, obj: _HasSync | None, owner: type | None = None) -> Self | Callable[P, T]:
        if obj is None:  # on the class: the descriptor itself, for help() and docs
            return self
        build = self.build

        def method(*args: P.args, **kwargs: P.kwargs) -> T:
            return obj._runner.run(build_sync(obj, build, *args, **kwargs))

        method.__doc__ = build.__doc__
        method.__name__ = build.__name__
        return method


class aop(Generic[P, T]):
    """The async method from the same builder."""

    def __init__(self, build: Callable[Concatenate[Ctx, P], Call[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, obj: _HasAsync, owner: type | None = None) -> Callable[P, Awaitable[T]]: ...

    def __get__(
        self, obj: _HasAsync | None, owner: type | None = None
    ) -> Self | Callable[P, Awaitable[T]]:
        if obj is None:  # on the class: the descriptor itself, for help() and docs
            return self
        build = self.build

        async def method(*args: P.args, **kwargs: P.kwargs) -> T:
            return await obj._runner.run(await build_async(obj, build, *args, **kwargs))

        method.__doc__ = build.__doc__
        method.__name__ = build.__name__
        return method


class pages(Generic[P, T]):
    """A sync iterator over every item of a list route, following `next_cursor`."""

    def __init__(self, build: Callable[Concatenate[Ctx, P], Paged[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, obj: _HasSync, owner: type | None = None) -> Callable[P, Iterator[T]]: ...

    def __get__(
        self, obj: _HasSync | None, owner: type | None = None
    ) -> Self | Callable[P, Iterator[T]]:
        if obj is None:  # on the class: the descriptor itself, for help() and docs
            return self
        build = self.build

        def method(*args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
            return obj._runner.pages(build_sync(obj, build, *args, **kwargs))

        method.__doc__ = build.__doc__
        method.__name__ = build.__name__
        return method


class apages(Generic[P, T]):
    """The async iterator from the same builder."""

    def __init__(self, build: Callable[Concatenate[Ctx, P], Paged[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(
        self, obj: _HasAsync, owner: type | None = None
    ) -> Callable[P, AsyncIterator[T]]: ...

    def __get__(
        self, obj: _HasAsync | None, owner: type | None = None
    ) -> Self | Callable[P, AsyncIterator[T]]:
        if obj is None:  # on the class: the descriptor itself, for help() and docs
            return self
        build = self.build

        async def method(*args: P.args, **kwargs: P.kwargs) -> AsyncIterator[T]:
            paged = await build_async(obj, build, *args, **kwargs)
            async for item in obj._runner.pages(paged):
                yield item

        method.__doc__ = build.__doc__
        method.__name__ = build.__name__
        return method


def with_cursor(call: Call[T], cursor: str | None) -> Call[T]:
    """The same call for the page at `cursor` (None: the first page)."""
    if cursor is None:
        return call
    params = [(k, v) for k, v in call.params if k != "cursor"] + [("cursor", cursor)]
    return replace(call, params=params)


def params(**values: Any) -> list[tuple[str, str]]:
    """Query parameters from keyword values: None left out, lists repeated, bools as JSON."""
    out: list[tuple[str, str]] = []
    for name, value in values.items():
        if value is None:
            continue
        for item in value if isinstance(value, list | tuple) else [value]:
            out.append((name, json.dumps(item) if isinstance(item, bool) else str(item)))
    return out
