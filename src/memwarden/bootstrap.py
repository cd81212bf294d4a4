"""Wires the database, job queue, model providers and judge into one Services object.

Tests build Services against their own database and scripted model server; the API,
CLI, MCP server and worker all receive the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from procrastinate import App

from memwarden.jobs.app import build_job_app
from memwarden.judge.gate import Judge
from memwarden.judge.interface import Gatekeeper, PassThrough
from memwarden.models.registry import Models, ModelSettings
from memwarden.settings import STAGES, Settings
from memwarden.store.db import Database, prepare


def model_settings(settings: Settings) -> ModelSettings:
    return ModelSettings(
        base_url=settings.openai_base_url,
        api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        stages={stage: settings.model_for(stage) for stage in STAGES},
        structured_output=settings.structured_output,
        timeout_s=settings.model_timeout_s,
        max_retries=settings.model_max_retries,
    )


@dataclass
class Services:
    settings: Settings
    db: Database
    jobs: App
    models: Models
    gatekeeper: Gatekeeper = field(default_factory=PassThrough)
    extras: dict[str, Any] = field(default_factory=dict)

    async def open(self) -> None:
        await self.db.open()
        await self.jobs.open_async()

    async def close(self) -> None:
        await self.jobs.close_async()
        await self.models.aclose()  # model clients hold keep-alive connections
        await self.db.close()


def build_services(
    settings: Settings, db: Database | None = None, models: Models | None = None
) -> Services:
    """Prepare (resolve + migrate) the database unless one is given."""
    database = db or prepare(settings)
    services = Services(
        settings=settings,
        db=database,
        jobs=build_job_app(database.url),
        models=models or Models(model_settings(settings)),
    )
    services.gatekeeper = Judge(services)  # the ingest judge; PassThrough only when unbuilt
    return services
