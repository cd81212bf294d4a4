"""Wires the database, job queue and model providers into one Services object.

Tests build Services against their own database and scripted model server; the API,
CLI, MCP server and worker all receive the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from procrastinate import App

from memwarden.jobs.app import build_job_app
from memwarden.settings import Settings
from memwarden.store.db import Database, prepare


@dataclass
class Services:
    settings: Settings
    db: Database
    jobs: App
    extras: dict[str, Any] = field(default_factory=dict)

    async def open(self) -> None:
        await self.db.open()
        await self.jobs.open_async()

    async def close(self) -> None:
        await self.jobs.close_async()
        await self.db.close()


def build_services(settings: Settings, db: Database | None = None) -> Services:
    """Prepare (resolve + migrate) the database unless one is given."""
    database = db or prepare(settings)
    return Services(settings=settings, db=database, jobs=build_job_app(database.url))
