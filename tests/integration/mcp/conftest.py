"""Fixtures for the MCP interface: the SDK's own client over streamable HTTP and stdio."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from memwarden.settings import Settings
from tests.support.live import LiveServer

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[3]
Connect = Callable[[str | None], AbstractAsyncContextManager[Client]]


def run(scenario: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(scenario)


@asynccontextmanager
async def http_session(url: str, token: str | None, mode: str = "auto") -> AsyncIterator[Client]:
    """An MCP client on `url`/mcp sending `token` as the bearer credential on every request.

    `mode="legacy"` forces the initialize handshake that pre-2026 clients use.
    """
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode) as client,
    ):
        yield client


MODULE = ["-m", "memwarden.mcp"]
# `memwarden mcp` as the CLI will register it: the typer command function itself.
CLI = ["-c", "import typer; from memwarden.cli.mcp_cmd import mcp_stdio; typer.run(mcp_stdio)"]


def stdio_params(
    settings: Settings, key: str | None, args: list[str] = MODULE
) -> StdioServerParameters:
    """`python -m memwarden.mcp` on the test database, with `key` as MEMWARDEN_API_KEY."""
    env = {
        "MEMWARDEN_DATABASE_URL": settings.database_url or "",
        "MEMWARDEN_DATA_DIR": str(settings.data_dir),
        "MEMWARDEN_LOG_LEVEL": "INFO",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
    }
    if settings.admin_token is not None:
        env["MEMWARDEN_ADMIN_TOKEN"] = settings.admin_token.get_secret_value()
    if key is not None:
        env["MEMWARDEN_API_KEY"] = key
    return StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(ROOT))


@pytest.fixture
def over_http(live: LiveServer) -> Connect:
    """over_http(key): an async context manager yielding a connected MCP Client."""

    def connect(token: str | None) -> AbstractAsyncContextManager[Client]:
        return http_session(live.url, token)

    return connect


@pytest.fixture
def stdio_log(tmp_path: Path) -> Path:
    """Where the stdio server's stderr (its JSON logs) goes, for tests to read."""
    return tmp_path / "mcp-stdio.log"


@pytest.fixture
def over_stdio(settings: Settings, stdio_log: Path) -> Connect:
    """over_stdio(key[, args]): spawn the stdio server and connect the SDK client to it."""

    @asynccontextmanager
    async def connect(key: str | None, args: list[str] = MODULE) -> AsyncIterator[Client]:
        with stdio_log.open("a") as errlog:
            transport = stdio_client(stdio_params(settings, key, args), errlog=errlog)
            async with Client(transport, read_timeout_seconds=60) as client:
                yield client

    return connect


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")
