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
from memwarden.models.registry import OPENAI_PROVIDERS, Models
from memwarden.models.rerank import Reranker, build_reranker
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
    # /query's reranker (retrieval/rerank_stage.py), built from the settings unless given;
    # None when no model is named. A copy (`dataclasses.replace`) keeps the same one.
    reranker: Reranker | None = None
    # Requests in flight in this process, in all and per Context (requests and body
    # bytes), and their budgets.
    admission: Admission = field(init=False)

    def __post_init__(self) -> None:
        if self.reranker is None:
            self.reranker = _reranker(self.settings, self.models)
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
        if self.reranker is not None:
            await self.reranker.aclose()
        await self.db.close()


def _reranker(settings: Settings, models: Models) -> Reranker | None:
    """The reranker MEMWARDEN_MODEL_RERANK names; its endpoint and key default to the
    OpenAI-compatible ones, and a chat scorer shares the registry's client for its model."""
    key = settings.rerank_api_key or settings.openai_api_key
    return build_reranker(
        settings.model_rerank,
        base_url=settings.rerank_base_url or settings.openai_base_url,
        api_key=key.get_secret_value() if key else None,
        timeout_s=settings.rerank_timeout_s,
        max_retries=min(settings.model_max_retries, 1),
        max_candidates=settings.rerank_candidates,
        chat_provider=lambda spec: models.chat_provider(spec, "rerank"),
        chat_providers=OPENAI_PROVIDERS,
    )
