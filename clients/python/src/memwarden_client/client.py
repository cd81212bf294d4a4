"""`Memwarden` (sync) and `AsyncMemwarden`: every route a Context key can use.

Both bind the same Call builders (`_calls.py`) over the same request layer
(`_core.py`), so their verbs, arguments, answers, errors and retries are the same; the
async one's methods are awaited and its lists are async iterators.

A key does not reveal its Context (it reads `mwk_<key id>_<secret>`), and routes under
`/api/v1/{context_id}/` name it. Given `Memwarden(url, key, context_id=...)`, the client
uses it; without it, the first call that names the Context asks `GET /whoami` once and the
client keeps the answer (`client.context_id`). The memory contract (`client.memory`) and
the change feed never need it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, Literal

import httpx

from memwarden_client import _calls
from memwarden_client import models as m
from memwarden_client._core import (
    AsyncRunner,
    Ctx,
    RetryEvent,
    RetryPolicy,
    SyncRunner,
    aop,
    apages,
    build_async,
    build_sync,
    op,
    pages,
)
from memwarden_client.streaming import ChatEvent, aevents, events


class _Part:
    def __init__(self, ctx: Ctx, runner: SyncRunner) -> None:
        self._ctx = ctx
        self._runner = runner


class _APart:
    def __init__(self, ctx: Ctx, runner: AsyncRunner) -> None:
        self._ctx = ctx
        self._runner = runner


def _deadline(timeout: float) -> float:
    return time.monotonic() + timeout


def _unfinished(what: str, ident: str, status: str, timeout: float) -> TimeoutError:
    return TimeoutError(f"{what} {ident} is still {status!r} after {timeout:g} s")


def _json_lines(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield json.loads(line)


async def _ajson_lines(lines: AsyncIterator[str]) -> AsyncIterator[dict[str, Any]]:
    async for line in lines:
        if line.strip():
            yield json.loads(line)


Include = Sequence[Literal["keys", "judgements"]] | None


# Sync namespaces ---------------------------------------------------------------------


class Documents(_Part):
    """`client.documents`: upload, status, wait, list, reprocess, delete."""

    upload = op(_calls.upload)
    get = op(_calls.document)
    reprocess = op(_calls.reprocess_document)
    delete = op(_calls.delete_document)

    def wait(
        self, document_id: str, *, timeout: float = 120.0, poll: float = 0.5
    ) -> m.DocumentResponse:
        """Poll until the document is `processed` or `failed` (TimeoutError past `timeout`)."""
        deadline = _deadline(timeout)
        while True:
            doc = self.get(document_id)
            if doc.status in _calls.FINAL_DOCUMENT_STATUSES:
                return doc
            if time.monotonic() >= deadline:
                raise _unfinished("document", document_id, doc.status, timeout)
            time.sleep(poll)

    list = pages(_calls.documents)


class Judgements(_Part):
    """`client.judgements`: the ingest judge's review log and decisions (grant:manage)."""

    get = op(_calls.judgement)
    override = op(_calls.override)
    approve = op(_calls.approve)
    reject = op(_calls.reject)
    dry_run = op(_calls.dry_run)
    list = pages(_calls.judgements)


class Hygiene(_Part):
    """`client.hygiene`: scans and their runs, the review queue, restore, challenge."""

    scan = op(_calls.scan)
    get_run = op(_calls.hygiene_run)
    queue = pages(_calls.queue)
    resolve = op(_calls.resolve)
    restore = op(_calls.restore)
    challenge = op(_calls.challenge)

    def wait(self, run_id: str, *, timeout: float = 120.0, poll: float = 0.5) -> m.HygieneRun:
        """Poll a run until it is `done` or `failed`."""
        deadline = _deadline(timeout)
        while True:
            run = self.get_run(run_id)
            if run.status in _calls.FINAL_RUN_STATUSES:
                return run
            if time.monotonic() >= deadline:
                raise _unfinished("hygiene run", run_id, run.status, timeout)
            time.sleep(poll)


class Passes(_Part):
    """`client.passes`: run a background pass now, and follow its run."""

    run = op(_calls.run_pass)
    get_run = op(_calls.pass_run)

    def wait(self, run_id: str, *, timeout: float = 120.0, poll: float = 0.5) -> m.PassRun:
        """Poll a run until it is `done` or `failed`."""
        deadline = _deadline(timeout)
        while True:
            run = self.get_run(run_id)
            if run.status in _calls.FINAL_RUN_STATUSES:
                return run
            if time.monotonic() >= deadline:
                raise _unfinished("pass run", run_id, run.status, timeout)
            time.sleep(poll)


class MemoryContract(_Part):
    """`client.memory`: the memory contract and review verbs (docs/review.md).

    `scope` is the contract's object (`{"project_id", "mission_id", "agent_id",
    "visibility"}` or `models.ScopeIn`); None is the whole Context's shared records.
    """

    commands = op(_calls.commands)
    read = op(_calls.read)
    search = op(_calls.search)
    embeddings = op(_calls.embeddings)
    reviews = op(_calls.reviews)
    review_state = op(_calls.review_state)
    review_read = op(_calls.review_read)
    eligibility = op(_calls.eligibility)


class Keys(_Part):
    """`client.keys`: the Context's keys (grant:manage)."""

    issue = op(_calls.issue_key)
    revoke = op(_calls.revoke_key)
    list = pages(_calls.keys)


class Config(_Part):
    """`client.config`: the Context's configuration (grant:manage)."""

    get = op(_calls.config)
    patch = op(_calls.patch_config)


class Webhooks(_Part):
    """`client.webhooks`: subscriptions to the change feed (grant:manage)."""

    create = op(_calls.create_webhook)
    get = op(_calls.webhook)
    patch = op(_calls.patch_webhook)
    delete = op(_calls.delete_webhook)
    rotate_secret = op(_calls.rotate_secret)
    deliveries = pages(_calls.deliveries)
    list = pages(_calls.webhooks)


class Imports(_Part):
    """`client.imports`: a file imported as a job (a memwarden or mem0 export, texts)."""

    start = op(_calls.start_import)
    get = op(_calls.import_job)

    def wait(self, import_id: str, *, timeout: float = 300.0, poll: float = 0.5) -> m.ImportJob:
        """Poll an import until it is `done` or `failed`."""
        deadline = _deadline(timeout)
        while True:
            job = self.get(import_id)
            if job.status in _calls.FINAL_RUN_STATUSES:
                return job
            if time.monotonic() >= deadline:
                raise _unfinished("import", import_id, job.status, timeout)
            time.sleep(poll)


class Erasures(_Part):
    """`client.erasures`: erase records, a subject, a speaker, a scope, a session or a
    document for good (grant:manage over what it names)."""

    start = op(_calls.erase)
    get = op(_calls.erasure)

    def wait(self, erasure_id: str, *, timeout: float = 120.0, poll: float = 0.5) -> m.Erasure:
        """Poll an erasure until it is `done` or `failed`."""
        deadline = _deadline(timeout)
        while True:
            run = self.get(erasure_id)
            if run.status in _calls.FINAL_RUN_STATUSES:
                return run
            if time.monotonic() >= deadline:
                raise _unfinished("erasure", erasure_id, run.status, timeout)
            time.sleep(poll)


class Memwarden:
    """A sync client for one Context key.

    `timeout` is httpx's (seconds, or an `httpx.Timeout`); `max_retries`, `backoff` and
    `max_retry_wait` bound the retries (`RetryPolicy` says which calls are retried);
    `on_retry` hears of each retry before its wait.
    """

    def __init__(
        self,
        url: str,
        key: str,
        *,
        context_id: str | None = None,
        timeout: float | httpx.Timeout = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 30.0,
        on_retry: Callable[[RetryEvent], None] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._ctx = Ctx(str(context_id) if context_id else None)
        self._runner = SyncRunner(
            url,
            key,
            timeout=timeout,
            retry=RetryPolicy(max_retries, backoff, max_retry_wait),
            on_retry=on_retry,
            transport=transport,
        )
        self.documents = Documents(self._ctx, self._runner)
        self.judgements = Judgements(self._ctx, self._runner)
        self.hygiene = Hygiene(self._ctx, self._runner)
        self.passes = Passes(self._ctx, self._runner)
        self.memory = MemoryContract(self._ctx, self._runner)
        self.keys = Keys(self._ctx, self._runner)
        self.config = Config(self._ctx, self._runner)
        self.webhooks = Webhooks(self._ctx, self._runner)
        self.erasures = Erasures(self._ctx, self._runner)
        self.imports = Imports(self._ctx, self._runner)

    @property
    def context_id(self) -> str | None:
        """The key's Context: as given, or as learnt from `/whoami`; None until then."""
        return self._ctx.context_id

    def whoami(self) -> m.WhoAmI:
        """The key's Context, principal and effective grants (`GET /whoami`); the client
        keeps the Context id it answers."""
        me = self._runner.run(_calls.whoami())
        self._ctx.learn(me.context_id)
        return me

    remember = op(_calls.remember)
    remember_batch = op(_calls.remember_batch)
    query = op(_calls.query)
    profile = op(_calls.profile)
    state = op(_calls.state)
    chat = op(_calls.chat)
    reflect = op(_calls.reflect)
    reprocess_turn = op(_calls.reprocess_turn)
    usage = op(_calls.usage)
    context = op(_calls.context)
    record_history = op(_calls.record_history)
    changes = pages(_calls.changes)
    audit = pages(_calls.audit)

    def export(
        self,
        *,
        subject: str | None = None,
        scope: str | None = None,
        sessions: bool | None = None,
        include: Include = None,
    ) -> Iterator[dict[str, Any]]:
        """The export's JSON Lines as dicts, read as they arrive (`header` first, `end`
        last); `client.imports.start` takes the same lines back."""
        call = build_sync(
            self, _calls.export, subject=subject, scope=scope, sessions=sessions, include=include
        )
        return _json_lines(self._runner.lines(call))

    def chat_stream(
        self,
        message: str,
        *,
        scope: _calls.Scope = None,
        session_id: str | None = None,
        visibility: Literal["shared", "private"] | None = None,
        remember: bool | None = None,
        limit: int | None = None,
    ) -> Iterator[ChatEvent]:
        """The answer as it is written: `ChatStreamMemories`, `ChatStreamToken`s, then
        `ChatStreamDone` (or `ChatStreamError` when it failed after starting). The
        request is sent when iteration starts; a refusal raises there."""
        call = build_sync(
            self,
            _calls.chat_stream,
            message,
            scope=scope,
            session_id=session_id,
            visibility=visibility,
            remember=remember,
            limit=limit,
        )
        return events(self._runner.lines(call))

    def close(self) -> None:
        self._runner.close()

    def __enter__(self) -> Memwarden:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Async namespaces --------------------------------------------------------------------


class AsyncDocuments(_APart):
    """`client.documents` of the async client."""

    upload = aop(_calls.upload)
    get = aop(_calls.document)
    reprocess = aop(_calls.reprocess_document)
    delete = aop(_calls.delete_document)

    async def wait(
        self, document_id: str, *, timeout: float = 120.0, poll: float = 0.5
    ) -> m.DocumentResponse:
        """Poll until the document is `processed` or `failed` (TimeoutError past `timeout`)."""
        deadline = _deadline(timeout)
        while True:
            doc = await self.get(document_id)
            if doc.status in _calls.FINAL_DOCUMENT_STATUSES:
                return doc
            if time.monotonic() >= deadline:
                raise _unfinished("document", document_id, doc.status, timeout)
            await asyncio.sleep(poll)

    list = apages(_calls.documents)


class AsyncJudgements(_APart):
    get = aop(_calls.judgement)
    override = aop(_calls.override)
    approve = aop(_calls.approve)
    reject = aop(_calls.reject)
    dry_run = aop(_calls.dry_run)
    list = apages(_calls.judgements)


class AsyncHygiene(_APart):
    scan = aop(_calls.scan)
    get_run = aop(_calls.hygiene_run)
    queue = apages(_calls.queue)
    resolve = aop(_calls.resolve)
    restore = aop(_calls.restore)
    challenge = aop(_calls.challenge)

    async def wait(self, run_id: str, *, timeout: float = 120.0, poll: float = 0.5) -> m.HygieneRun:
        deadline = _deadline(timeout)
        while True:
            run = await self.get_run(run_id)
            if run.status in _calls.FINAL_RUN_STATUSES:
                return run
            if time.monotonic() >= deadline:
                raise _unfinished("hygiene run", run_id, run.status, timeout)
            await asyncio.sleep(poll)


class AsyncPasses(_APart):
    run = aop(_calls.run_pass)
    get_run = aop(_calls.pass_run)

    async def wait(self, run_id: str, *, timeout: float = 120.0, poll: float = 0.5) -> m.PassRun:
        deadline = _deadline(timeout)
        while True:
            run = await self.get_run(run_id)
            if run.status in _calls.FINAL_RUN_STATUSES:
                return run
            if time.monotonic() >= deadline:
                raise _unfinished("pass run", run_id, run.status, timeout)
            await asyncio.sleep(poll)


class AsyncMemoryContract(_APart):
    commands = aop(_calls.commands)
    read = aop(_calls.read)
    search = aop(_calls.search)
    embeddings = aop(_calls.embeddings)
    reviews = aop(_calls.reviews)
    review_state = aop(_calls.review_state)
    review_read = aop(_calls.review_read)
    eligibility = aop(_calls.eligibility)


class AsyncKeys(_APart):
    issue = aop(_calls.issue_key)
    revoke = aop(_calls.revoke_key)
    list = apages(_calls.keys)


class AsyncConfig(_APart):
    get = aop(_calls.config)
    patch = aop(_calls.patch_config)


class AsyncWebhooks(_APart):
    create = aop(_calls.create_webhook)
    get = aop(_calls.webhook)
    patch = aop(_calls.patch_webhook)
    delete = aop(_calls.delete_webhook)
    rotate_secret = aop(_calls.rotate_secret)
    deliveries = apages(_calls.deliveries)
    list = apages(_calls.webhooks)


class AsyncImports(_APart):
    start = aop(_calls.start_import)
    get = aop(_calls.import_job)

    async def wait(
        self, import_id: str, *, timeout: float = 300.0, poll: float = 0.5
    ) -> m.ImportJob:
        deadline = _deadline(timeout)
        while True:
            job = await self.get(import_id)
            if job.status in _calls.FINAL_RUN_STATUSES:
                return job
            if time.monotonic() >= deadline:
                raise _unfinished("import", import_id, job.status, timeout)
            await asyncio.sleep(poll)


class AsyncErasures(_APart):
    start = aop(_calls.erase)
    get = aop(_calls.erasure)

    async def wait(
        self, erasure_id: str, *, timeout: float = 120.0, poll: float = 0.5
    ) -> m.Erasure:
        deadline = _deadline(timeout)
        while True:
            run = await self.get(erasure_id)
            if run.status in _calls.FINAL_RUN_STATUSES:
                return run
            if time.monotonic() >= deadline:
                raise _unfinished("erasure", erasure_id, run.status, timeout)
            await asyncio.sleep(poll)


class AsyncMemwarden:
    """The async client: the same verbs as `Memwarden`, awaited."""

    def __init__(
        self,
        url: str,
        key: str,
        *,
        context_id: str | None = None,
        timeout: float | httpx.Timeout = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 30.0,
        on_retry: Callable[[RetryEvent], None] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._ctx = Ctx(str(context_id) if context_id else None)
        self._runner = AsyncRunner(
            url,
            key,
            timeout=timeout,
            retry=RetryPolicy(max_retries, backoff, max_retry_wait),
            on_retry=on_retry,
            transport=transport,
        )
        self.documents = AsyncDocuments(self._ctx, self._runner)
        self.judgements = AsyncJudgements(self._ctx, self._runner)
        self.hygiene = AsyncHygiene(self._ctx, self._runner)
        self.passes = AsyncPasses(self._ctx, self._runner)
        self.memory = AsyncMemoryContract(self._ctx, self._runner)
        self.keys = AsyncKeys(self._ctx, self._runner)
        self.config = AsyncConfig(self._ctx, self._runner)
        self.webhooks = AsyncWebhooks(self._ctx, self._runner)
        self.erasures = AsyncErasures(self._ctx, self._runner)
        self.imports = AsyncImports(self._ctx, self._runner)

    @property
    def context_id(self) -> str | None:
        """The key's Context: as given, or as learnt from `/whoami`; None until then."""
        return self._ctx.context_id

    async def whoami(self) -> m.WhoAmI:
        """The key's Context, principal and effective grants (`GET /whoami`)."""
        me = await self._runner.run(_calls.whoami())
        self._ctx.learn(me.context_id)
        return me

    remember = aop(_calls.remember)
    remember_batch = aop(_calls.remember_batch)
    query = aop(_calls.query)
    profile = aop(_calls.profile)
    state = aop(_calls.state)
    chat = aop(_calls.chat)
    reflect = aop(_calls.reflect)
    reprocess_turn = aop(_calls.reprocess_turn)
    usage = aop(_calls.usage)
    context = aop(_calls.context)
    record_history = aop(_calls.record_history)
    changes = apages(_calls.changes)
    audit = apages(_calls.audit)

    def export(
        self,
        *,
        subject: str | None = None,
        scope: str | None = None,
        sessions: bool | None = None,
        include: Include = None,
    ) -> AsyncIterator[dict[str, Any]]:
        """`async for line in client.export(...)`: as `Memwarden.export`."""

        async def lines() -> AsyncIterator[dict[str, Any]]:
            call = await build_async(
                self,
                _calls.export,
                subject=subject,
                scope=scope,
                sessions=sessions,
                include=include,
            )
            async for line in _ajson_lines(self._runner.lines(call)):
                yield line

        return lines()

    def chat_stream(
        self,
        message: str,
        *,
        scope: _calls.Scope = None,
        session_id: str | None = None,
        visibility: Literal["shared", "private"] | None = None,
        remember: bool | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[ChatEvent]:
        """`async for event in client.chat_stream(...)`: as `Memwarden.chat_stream`."""

        async def stream() -> AsyncIterator[ChatEvent]:
            call = await build_async(
                self,
                _calls.chat_stream,
                message,
                scope=scope,
                session_id=session_id,
                visibility=visibility,
                remember=remember,
                limit=limit,
            )
            async for event in aevents(self._runner.lines(call)):
                yield event

        return stream()

    async def aclose(self) -> None:
        await self._runner.close()

    async def __aenter__(self) -> AsyncMemwarden:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
