"""The FastAPI application: routers, error format, middleware, lifespan."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from fastapi import FastAPI

from memwarden import __version__
from memwarden.api.body_budget import ContextBodyBudget
from memwarden.api.errors import install_error_handlers
from memwarden.api.middleware import ServiceMiddleware
from memwarden.api.openapi import install_openapi
from memwarden.api.routes import (
    admin,
    chat,
    documents,
    erasures,
    facts,
    feed,
    health,
    history,
    hygiene,
    judgements,
    memory,
    passes,
    portability,
    recall,
    webhooks,
    whoami,
)
from memwarden.api.shedding import LoadShedding
from memwarden.bootstrap import build_services
from memwarden.jobs.recovery import run_worker
from memwarden.mcp.http import mount_mcp
from memwarden.services import Services
from memwarden.settings import Settings, get_settings
from memwarden.web import mount_dashboard

log = structlog.get_logger(__name__)


async def start_worker(services: Services) -> asyncio.Task[None]:
    """An in-process worker for `memwarden serve` (the default), recovering what a dead
    worker left as it starts (jobs/recovery.py)."""
    task = asyncio.create_task(
        run_worker(services, install_signal_handlers=False, concurrency=2, name="in-process")
    )
    services.worker = task
    return task


async def stop_worker(services: Services) -> None:
    task, services.worker = services.worker, None
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(task, timeout=10)


def create_app(
    services: Services | None = None,
    *,
    settings: Settings | None = None,
    run_worker: bool = False,
    open_services: bool | None = None,
) -> FastAPI:
    """Given Services (tests), the app uses them as they are; otherwise it builds its own.

    `open_services` makes the lifespan open and close given Services (the CLI's case).
    """
    owned = services is None if open_services is None else open_services

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        svc = services or build_services(settings or get_settings())
        if owned:
            await svc.open()
        app.state.services = svc
        if run_worker:
            await start_worker(svc)
        log.info("memwarden_started", version=__version__)
        try:
            async with mcp_endpoint.running():  # MCP (streamable HTTP) at /mcp
                yield
        finally:
            if run_worker:
                await stop_worker(svc)
            if owned:
                await svc.close()

    app = FastAPI(
        title="memwarden",
        version=__version__,
        description="Long-term memory for AI agents in which nothing is stored blindly.",
        lifespan=lifespan,
    )
    if services is not None:
        app.state.services = services
    install_error_handlers(app)
    for module in (
        health,
        admin,
        whoami,
        feed,
        memory,
        history,
        judgements,
        facts,
        recall,
        documents,
        chat,
        hygiene,
        passes,
        webhooks,
        erasures,
        portability,
    ):
        app.include_router(module.router)
    mount_dashboard(app, services.settings if services else settings or get_settings())  # /ui
    mcp_endpoint = mount_mcp(app)  # MCP tools at /mcp: memwarden.mcp.http
    # Error responses, bearer security and the chat stream's events: api/openapi.py
    install_openapi(app, event_streams=chat.EVENT_STREAMS)
    app.add_middleware(ContextBodyBudget)  # inside LoadShedding: a shed request is not read
    app.add_middleware(LoadShedding)  # inside ServiceMiddleware: a 503 is logged too
    app.add_middleware(ServiceMiddleware)
    return app
