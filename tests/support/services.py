"""The service tier's harness: use cases called directly on a real database, no HTTP.

Like procrastinate's manager tests: the bulk of the behaviour is checked through the
functions every interface calls, so a test pays for neither uvicorn nor a socket. One
event loop lives for the whole test (`asyncio.Runner`), so the connection pool opened at
the start serves every call. `Services` is reached only through `build_services`, so a
change to how it is defined is one edit here.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from memwarden.admin.auth import authenticate
from memwarden.admin.contexts import create_context
from memwarden.admin.keys import create_key, revoke_key
from memwarden.admin.settings_service import patch_config
from memwarden.answers import wire
from memwarden.bootstrap import build_services
from memwarden.domain.grants import Caller
from memwarden.settings import Settings
from memwarden.store.db import Database

T = TypeVar("T")
ALL_GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]


def as_json(value: Any) -> Any:
    """What the HTTP layer would send for a use case's result (UUIDs and times as strings,
    an answer model's fields as it set them: `answers.wire`)."""
    if isinstance(value, BaseModel):
        return wire(value)
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    return to_jsonable_python(value)


@dataclass(frozen=True)
class ContextKey:
    """A Context and one key in it, as the service tier's tests use them."""

    id: uuid.UUID
    key: str
    key_id: uuid.UUID
    caller: Caller

    def __getitem__(self, name: str) -> Any:
        """`ctx["id"]` as the acceptance tests' dicts spell it (as a string)."""
        return str(getattr(self, name)) if name in ("id", "key_id") else getattr(self, name)


class ServiceHarness:
    """Services built by bootstrap on the test's database, with one event loop to run in."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._runner = asyncio.Runner()
        db = Database(settings.database_url or "", min_size=1, max_size=5)
        self.services = build_services(settings, db=db)
        self.run(self.services.open())
        token = settings.admin_token.get_secret_value() if settings.admin_token else None
        self._admin_token = token
        self.admin = self.run(authenticate(db, token, token))

    def run(self, awaitable: Awaitable[T]) -> T:
        """Run one use case (a coroutine) on the test's event loop."""
        return self._runner.run(awaitable)  # type: ignore[arg-type]

    def close(self) -> None:
        try:
            self.run(self.services.close())
        finally:
            self._runner.close()

    def make_context(
        self,
        name: str = "ctx",
        grants: list[str] | None = None,
        subject: str = "alice",
        config: dict[str, Any] | None = None,
        **key: Any,
    ) -> ContextKey:
        """A Context (with an optional configuration patch) and one key for `subject`."""
        db = self.services.db
        cid = uuid.UUID(self.run(create_context(db, self.admin, name)).id)
        if config:
            self.run(patch_config(db, self.admin, cid, config))
        return self.add_key(cid, grants or ALL_GRANTS, subject, **key)

    def add_key(
        self, context_id: uuid.UUID, grants: list[str], subject: str = "bob", **key: Any
    ) -> ContextKey:
        db = self.services.db
        issued = self.run(
            create_key(db, self.admin, context_id, subject=subject, grants=grants, **key)
        )
        caller = self.run(authenticate(db, issued.key, self._admin_token))
        return ContextKey(context_id, issued.key, uuid.UUID(issued.id), caller)

    def configure(self, context_id: uuid.UUID, patch: dict[str, Any]) -> dict[str, Any]:
        return wire(self.run(patch_config(self.services.db, self.admin, context_id, patch)))

    def revoke(self, key: ContextKey) -> None:
        """Revoke a key as an admin would (DELETE /contexts/{id}/keys/{key_id})."""
        self.run(revoke_key(self.services.db, self.admin, key.id, key.key_id))
