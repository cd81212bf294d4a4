"""The MCP server: one MCPServer with every tool, over streamable HTTP or stdio.

Tools are thin: authenticate the call, hand the validated arguments to the same service
function the HTTP route calls, return its JSON. Failures become tool errors in the HTTP
error shape (`errors.py`); nothing is logged with arguments or exception text, because
both can hold memory content.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import structlog
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

from memwarden import __version__
from memwarden.errors import AppError, JudgeDenied
from memwarden.limits import DEFAULT_BODY_LIMIT, FACTS_BODY_LIMIT
from memwarden.mcp import (
    errors,
    tools_erasure,
    tools_history,
    tools_hygiene,
    tools_judge,
    tools_memory,
    tools_portability,
    tools_review,
)
from memwarden.mcp.auth import CredentialSource, Runtime, counted_call
from memwarden.services import Services
from memwarden.store.errors import DatabaseBusy

log = structlog.get_logger(__name__)
TOOL_BODY_LIMITS = {"remember": FACTS_BODY_LIMIT}

INSTRUCTIONS = (
    "memwarden is long-term memory in which nothing is stored blindly. Every call acts with "
    "the API key it authenticates with: its Context, subject and grants. Errors come back as "
    '{"error": {"code", "message", "status", "kind"}}, the same codes as the HTTP API.'
)


class MemwardenMCP(MCPServer[Any]):
    """MCPServer whose failed calls are rendered by us, not by the SDK, and logged by name only."""

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        started = time.perf_counter()
        result = await self._call(name, arguments, context)
        status = 200
        if isinstance(result, CallToolResult) and result.is_error and result.structured_content:
            failure = result.structured_content.get("error", {})
            if failure.get("code") == JudgeDenied.code:
                return result  # a deny leaves no line at all, as it leaves no access line
            status = failure.get("status", 500)
        # Like the HTTP access log: tool and status only, never the arguments or error code.
        log.info(
            "mcp_tool",
            tool=name,
            status=status,
            ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return result

    async def _call(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None
    ) -> CallToolResult | InputRequiredResult:
        limit = body_limit(name)
        if encoded_size(arguments) > limit:
            # Before validation, as the HTTP middleware answers 413 before any route runs.
            return errors.error_result(
                413, "payload_too_large", f"request body exceeds {limit} bytes"
            )
        try:
            with counted_call():  # the caller's Context budget, held for this call
                return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, AppError):
                return errors.from_app_error(cause)
            if isinstance(cause, ValidationError):
                return errors.from_validation(cause)
            if isinstance(cause, DatabaseBusy):
                return errors.busy(cause)
            if cause is None:
                raise  # the SDK's own refusal (an unknown tool): its text names only the tool
            # The type only: an exception's text can quote data.
            log.error("mcp_tool_failed", tool=name, error_type=type(cause).__name__)
            return errors.internal_error()


def body_limit(tool: str) -> int:
    """A tool's arguments obey its HTTP route's body limit: 64 KiB, or /facts' for remember."""
    return TOOL_BODY_LIMITS.get(tool, DEFAULT_BODY_LIMIT)


def encoded_size(arguments: dict[str, Any]) -> int:
    """The arguments as the JSON body the HTTP route would receive, in bytes."""
    try:
        return len(json.dumps(arguments, separators=(",", ":"), ensure_ascii=False).encode())
    except (TypeError, ValueError):
        return 0  # not JSON-shaped: argument validation refuses it


def build_server(services: Callable[[], Services], credential: CredentialSource) -> MemwardenMCP:
    """`services` is looked up per call, so the HTTP app can build its Services in its lifespan."""
    server = MemwardenMCP(
        "memwarden",
        title="memwarden",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    runtime = Runtime(services=services, credential=credential)
    for module in (
        tools_memory,
        tools_review,
        tools_judge,
        tools_hygiene,
        tools_erasure,
        tools_history,
        tools_portability,
    ):
        module.register(server, runtime)
    return server
