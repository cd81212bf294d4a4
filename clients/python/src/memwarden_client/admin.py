"""`MemwardenAdmin` and `AsyncMemwardenAdmin`: the deployment admin token's routes.

The admin token creates and lists Contexts, manages any Context's keys, configuration,
audit log and usage, and reads `/health` in detail; it reads and writes no memory (every
memory route answers it 403 `context_key_required`), so it has no memory verbs here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any

import httpx

from memwarden_client import _calls
from memwarden_client import models as m
from memwarden_client._core import AsyncRunner, Ctx, RetryEvent, RetryPolicy, SyncRunner

_NONE = Ctx(None)


class _Admin:
    def __init__(self, runner: SyncRunner) -> None:
        self._runner = runner


class AdminContexts(_Admin):
    def create(self, name: str, *, owner_subject: str | None = None) -> m.CreatedContext:
        """A new Context; with `owner_subject`, its owner's key is in `owner_key`."""
        return self._runner.run(_calls.create_context(_NONE, name, owner_subject=owner_subject))

    def get(self, context_id: str) -> m.ContextInfo:
        return self._runner.run(_calls.context(Ctx(context_id)))

    def list(self, *, limit: int | None = None) -> Iterator[m.ContextInfo]:
        """Every Context, oldest first, following `next_cursor`."""
        return self._runner.pages(_calls.contexts(_NONE, limit=limit))


class AdminKeys(_Admin):
    def issue(
        self,
        context_id: str,
        subject: str,
        grants: Sequence[str],
        *,
        scope: str | None = None,
        expires_at: str | None = None,
    ) -> m.IssuedKey:
        """Issue a key in a Context; its secret (`key`) is in this answer only."""
        call = _calls.issue_key(
            Ctx(context_id), subject, grants, scope=scope, expires_at=expires_at
        )
        return self._runner.run(call)

    def revoke(self, context_id: str, key_id: str) -> m.RevokedKey:
        return self._runner.run(_calls.revoke_key(Ctx(context_id), key_id))

    def list(self, context_id: str, *, limit: int | None = None) -> Iterator[m.KeyInfo]:
        return self._runner.pages(_calls.keys(Ctx(context_id), limit=limit))


class AdminConfig(_Admin):
    def get(self, context_id: str) -> m.ContextConfig:
        return self._runner.run(_calls.config(Ctx(context_id)))

    def patch(self, context_id: str, patch: Mapping[str, Any]) -> m.ContextConfig:
        """Objects merge, `""` clears an addendum; answers the whole configuration."""
        return self._runner.run(_calls.patch_config(Ctx(context_id), patch))


class MemwardenAdmin:
    """A sync client for the deployment admin token (`MEMWARDEN_ADMIN_TOKEN`)."""

    def __init__(
        self,
        url: str,
        admin_token: str,
        *,
        timeout: float | httpx.Timeout = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 30.0,
        on_retry: Callable[[RetryEvent], None] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._runner = SyncRunner(
            url,
            admin_token,
            timeout=timeout,
            retry=RetryPolicy(max_retries, backoff, max_retry_wait),
            on_retry=on_retry,
            transport=transport,
        )
        self.contexts = AdminContexts(self._runner)
        self.keys = AdminKeys(self._runner)
        self.config = AdminConfig(self._runner)

    def health(self) -> m.HealthReport:
        """The detailed report (versions, worker, model stages); a 503's report too."""
        return self._runner.run(_calls.health(_NONE))

    def usage(self, context_id: str, *, days: int | None = None) -> m.UsageAnswer:
        return self._runner.run(_calls.usage(Ctx(context_id), days=days))

    def audit(
        self, context_id: str, *, action: str | None = None, limit: int | None = None
    ) -> Iterator[m.AuditEvent]:
        return self._runner.pages(_calls.audit(Ctx(context_id), action=action, limit=limit))

    def close(self) -> None:
        self._runner.close()

    def __enter__(self) -> MemwardenAdmin:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _AAdmin:
    def __init__(self, runner: AsyncRunner) -> None:
        self._runner = runner


class AsyncAdminContexts(_AAdmin):
    async def create(self, name: str, *, owner_subject: str | None = None) -> m.CreatedContext:
        return await self._runner.run(
            _calls.create_context(_NONE, name, owner_subject=owner_subject)
        )

    async def get(self, context_id: str) -> m.ContextInfo:
        return await self._runner.run(_calls.context(Ctx(context_id)))

    def list(self, *, limit: int | None = None) -> AsyncIterator[m.ContextInfo]:
        return self._runner.pages(_calls.contexts(_NONE, limit=limit))


class AsyncAdminKeys(_AAdmin):
    async def issue(
        self,
        context_id: str,
        subject: str,
        grants: Sequence[str],
        *,
        scope: str | None = None,
        expires_at: str | None = None,
    ) -> m.IssuedKey:
        call = _calls.issue_key(
            Ctx(context_id), subject, grants, scope=scope, expires_at=expires_at
        )
        return await self._runner.run(call)

    async def revoke(self, context_id: str, key_id: str) -> m.RevokedKey:
        return await self._runner.run(_calls.revoke_key(Ctx(context_id), key_id))

    def list(self, context_id: str, *, limit: int | None = None) -> AsyncIterator[m.KeyInfo]:
        return self._runner.pages(_calls.keys(Ctx(context_id), limit=limit))


class AsyncAdminConfig(_AAdmin):
    async def get(self, context_id: str) -> m.ContextConfig:
        return await self._runner.run(_calls.config(Ctx(context_id)))

    async def patch(self, context_id: str, patch: Mapping[str, Any]) -> m.ContextConfig:
        return await self._runner.run(_calls.patch_config(Ctx(context_id), patch))


class AsyncMemwardenAdmin:
    """The async admin client: the same verbs as `MemwardenAdmin`, awaited."""

    def __init__(
        self,
        url: str,
        admin_token: str,
        *,
        timeout: float | httpx.Timeout = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 30.0,
        on_retry: Callable[[RetryEvent], None] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._runner = AsyncRunner(
            url,
            admin_token,
            timeout=timeout,
            retry=RetryPolicy(max_retries, backoff, max_retry_wait),
            on_retry=on_retry,
            transport=transport,
        )
        self.contexts = AsyncAdminContexts(self._runner)
        self.keys = AsyncAdminKeys(self._runner)
        self.config = AsyncAdminConfig(self._runner)

    async def health(self) -> m.HealthReport:
        return await self._runner.run(_calls.health(_NONE))

    async def usage(self, context_id: str, *, days: int | None = None) -> m.UsageAnswer:
        return await self._runner.run(_calls.usage(Ctx(context_id), days=days))

    def audit(
        self, context_id: str, *, action: str | None = None, limit: int | None = None
    ) -> AsyncIterator[m.AuditEvent]:
        return self._runner.pages(_calls.audit(Ctx(context_id), action=action, limit=limit))

    async def aclose(self) -> None:
        await self._runner.close()

    async def __aenter__(self) -> AsyncMemwardenAdmin:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
