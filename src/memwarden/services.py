"""The collaborators a use case takes: one typed object, `services: Services`, first argument.

It lives below the service packages and names only lower things (settings, the database,
the model registry, the gatekeeper contract, the job queue, process caches, the parser
child processes), so a use case can take it without importing what builds it.
`bootstrap.build_services` fills it in.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from procrastinate import App

from memwarden.admission import Admission
from memwarden.child_pool import ChildPool
from memwarden.gatekeeper import Gatekeeper, PassThrough
from memwarden.models.registry import Models
from memwarden.settings import Settings
from memwarden.store.db import Database
from memwarden.ttl_cache import TtlCache


@dataclass
class Services:
    settings: Settings
    db: Database
    # The job queue: use cases defer a task by its name (`jobs.configure_task(name, ...)`),
    # so none imports the task definitions (they import the use cases).
    jobs: App
    models: Models
    gatekeeper: Gatekeeper = field(default_factory=PassThrough)
    # Process-wide write-path counters (dropped extraction bytes, windows that failed).
    write_counters: Counter[str] = field(default_factory=Counter)
    # The chat response cache (chat/cache.py types its keys and values).
    chat_cache: TtlCache[Any, Any] = field(default_factory=TtlCache)
    # /health's model-provider check, kept 30 s (health.py: _models) so that
    # anonymous callers cannot make the service call its provider; one check at a time.
    provider_check: TtlCache[str, Any] = field(
        default_factory=lambda: TtlCache(max_entries=1, ttl_s=30.0)
    )
    provider_check_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Each Context's own vector indexes, kept 30 s (retrieval/vector_plan.py).
    vector_profiles: TtlCache[Any, Any] = field(
        default_factory=lambda: TtlCache(max_entries=4096, ttl_s=30.0)
    )
    # The child processes that parse documents (bootstrap sets their memory cap and modules).
    parsers: ChildPool = field(default_factory=ChildPool)
    # The in-process worker of `memwarden serve`, while it runs.
    worker: asyncio.Task[None] | None = None
    # Requests in flight in this process, in all and per Context (requests and body
    # bytes), and their budgets.
    admission: Admission = field(init=False)

    def __post_init__(self) -> None:
        self.admission = Admission(
            max_in_flight=self.settings.max_in_flight,
            context_max_in_flight=self.settings.context_max_in_flight,
            context_max_bytes_in_flight=self.settings.context_max_bytes_in_flight,
        )

    async def open(self) -> None:
        await self.db.open()
        await self.jobs.open_async()

    async def close(self) -> None:
        await self.parsers.close()  # kills any parser child still running
        await self.jobs.close_async()
        await self.models.aclose()  # model clients hold keep-alive connections
        await self.db.close()
