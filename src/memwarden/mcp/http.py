"""The streamable HTTP endpoint at /mcp inside the FastAPI app.

Stateless and JSON-answering: API processes keep no MCP sessions, so any number of them
can serve the same clients (DESIGN: scale-out). Host/Origin checks are off because every
call needs a bearer key a browser page cannot add; the 2 MiB body limit matches the
app's own limit for /mcp.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from memwarden.limits import MCP_TRANSPORT_LIMIT
from memwarden.mcp.auth import bearer_header
from memwarden.mcp.server import MemwardenMCP, build_server
from memwarden.services import Services

PATH = "/mcp"
MAX_BODY = MCP_TRANSPORT_LIMIT


class McpEndpoint:
    """ASGI endpoint for /mcp; a fresh session manager per app lifespan (each runs once)."""

    def __init__(self, server: MemwardenMCP) -> None:
        self.server = server
        self.manager: StreamableHTTPSessionManager | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self.server.streamable_http_app(
            streamable_http_path=PATH,
            stateless_http=True,
            json_response=True,
            max_request_body_size=MAX_BODY,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        manager = self.server.session_manager
        async with manager.run():
            self.manager = manager
            try:
                yield
            finally:
                self.manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.manager is None:
            # The HTTP API's error shape, written here: MCP imports nothing from `api`.
            error = {"code": "unavailable", "message": "the MCP endpoint is not running"}
            response = JSONResponse(
                {"error": error}, status_code=503, headers={"Cache-Control": "no-store"}
            )
            await response(scope, receive, send)
            return
        await self.manager.handle_request(scope, receive, send)


def mount_mcp(app: FastAPI) -> McpEndpoint:
    """Route /mcp to the MCP server; the caller runs `endpoint.running()` in its lifespan."""

    def services() -> Services:
        return app.state.services

    endpoint = McpEndpoint(build_server(services, bearer_header))
    # A Route whose endpoint is an ASGI app (not a function) passes requests through as-is.
    app.router.routes.append(Route(PATH, endpoint, include_in_schema=False))  # type: ignore[arg-type]
    return endpoint
