"""The stdio transport: one process per client, acting with the key it was started with.

Stdout carries the protocol only, so startup (migrations, the embedded database) writes
to stderr, as do the JSON logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import structlog

from memwarden import __version__
from memwarden.bootstrap import build_services
from memwarden.logging_setup import configure_logging
from memwarden.mcp.auth import fixed_key
from memwarden.mcp.server import build_server
from memwarden.services import Services
from memwarden.settings import Settings, get_settings

KEY_ENV = "MEMWARDEN_API_KEY"
log = structlog.get_logger(__name__)


async def serve_stdio(services: Services, key: str | None) -> None:
    """Serve until the client closes stdin; every call authenticates `key` again."""
    server = build_server(lambda: services, fixed_key(key))
    log.info("mcp_stdio_started", version=__version__, key_given=bool(key))
    await server.run_stdio_async()


def run_stdio(settings: Settings | None = None, key: str | None = None) -> None:
    """Build the deployment's Services and serve MCP over stdin/stdout."""
    settings = settings or get_settings()
    configure_logging(settings.log_level, settings.log_json)
    key = key if key is not None else os.environ.get(KEY_ENV)

    async def main() -> None:
        with contextlib.redirect_stdout(sys.stderr):
            services = build_services(settings)
            await services.open()
        try:
            await serve_stdio(services, key)
        finally:
            await services.close()

    asyncio.run(main())
