"""The MCP configuration snippets of clients/mcp (shown in docs/clients/mcp.md) work: each
is read the way its client reads it, with the placeholder URL and key replaced, and the
official MCP client (or the Agents SDK's, for its snippet) connects with what it says,
lists the tools, remembers and recalls."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import shlex
import shutil
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from memwarden.settings import Settings
from tests.support.live import LiveServer

ROOT = Path(__file__).resolve().parents[3]
SNIPPETS = ROOT / "clients" / "mcp"
DOC = ROOT / "docs" / "clients" / "mcp.md"
PLACEHOLDER_URL = "http://127.0.0.1:8420"
# How each snippet names the key: a literal placeholder, or the variable its client expands.
KEY_PLACEHOLDERS = ("mwk_YOUR_KEY", "${env:MEMWARDEN_KEY}", "${MEMWARDEN_KEY}", "$MEMWARDEN_KEY")
DB_PLACEHOLDER = "postgresql://USER:PASSWORD@HOST:5432/memwarden"

Connect = Callable[[], AbstractAsyncContextManager[Any]]


def filled(name: str, url: str, key: str, db_url: str = "") -> str:
    text = (SNIPPETS / name).read_text().replace(PLACEHOLDER_URL, url)
    for placeholder in KEY_PLACEHOLDERS:
        text = text.replace(placeholder, key)
    return text.replace(DB_PLACEHOLDER, db_url)


def entry(text: str) -> dict[str, Any]:
    (only,) = json.loads(text)["mcpServers"].values()
    return only


@asynccontextmanager
async def over_http(url: str, headers: dict[str, str]) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


def from_url_entry(text: str) -> Connect:
    """Cursor's and Claude Code's `{"url", "headers"}` (Claude Code adds `"type": "http"`)."""
    server = entry(text)
    assert server.get("type", "http") == "http"
    return lambda: over_http(server["url"], server["headers"])


def from_mcp_remote(text: str) -> Connect:
    """Claude Desktop's bridge: `npx mcp-remote URL --header Name:value`, `${VAR}` in a
    header taken from the entry's `env`, as mcp-remote expands it."""
    server = entry(text)
    assert server["command"] == "npx"
    args = server["args"]
    url = args[args.index("mcp-remote") + 1]
    headers = {}
    for i, arg in enumerate(args):
        if arg == "--header":
            value = re.sub(r"\$\{(\w+)\}", lambda m: server["env"][m[1]], args[i + 1])
            name, _, header = value.partition(":")
            headers[name] = header.strip()
    return lambda: over_http(url, headers)


def from_claude_mcp_add(text: str) -> Connect:
    """`claude mcp add --transport http NAME URL --header "Name: value"`."""
    (line,) = [line for line in text.splitlines() if line.startswith("claude ")]
    words = shlex.split(line)
    assert words[:3] == ["claude", "mcp", "add"]
    headers, positional, rest = {}, [], iter(words[3:])
    for word in rest:
        if word == "--transport":
            assert next(rest) == "http"
        elif word == "--header":
            name, _, value = next(rest).partition(":")
            headers[name] = value.strip()
        else:
            positional.append(word)
    assert positional[0] == "memwarden"
    return lambda: over_http(positional[1], headers)


def from_stdio_entry(text: str) -> Connect:
    """Claude Desktop's stdio entry: `memwarden mcp` with the key and database in `env`."""
    server = entry(text)
    command = shutil.which(server["command"], path=str(Path(sys.executable).parent))
    assert command, "the memwarden entry point is not installed next to this Python"
    env = {**server["env"], "PATH": os.environ.get("PATH", ""), "MEMWARDEN_LOG_LEVEL": "WARNING"}
    params = StdioServerParameters(command=command, args=server["args"], env=env, cwd=str(ROOT))

    @asynccontextmanager
    async def connect() -> AsyncIterator[Client]:
        async with Client(stdio_client(params), read_timeout_seconds=60) as client:
            yield client

    return connect


def body(result: CallToolResult) -> dict[str, Any]:
    assert result.content and result.content[0].type == "text"
    answer = json.loads(result.content[0].text)
    assert not result.is_error, answer
    return answer


async def exercise(
    names: Callable[[], Awaitable[set[str]]],
    call: Callable[[str, dict[str, Any]], Awaitable[CallToolResult]],
) -> tuple[set[str], dict[str, Any]]:
    """List the tools, remember a new word, and recall it."""
    word = f"kumquat{uuid.uuid4().hex[:8]}"
    tools = await names()
    written = body(await call("remember", {"text": f"I like {word}."}))
    recalled = body(await call("recall", {"query": word, "limit": 5}))
    assert any(word in hit["text"] for hit in recalled["hits"]), recalled
    return tools, written


async def remember_and_recall(connect: Connect) -> tuple[set[str], dict[str, Any]]:
    async with connect() as client:

        async def names() -> set[str]:
            return {tool.name for tool in (await client.list_tools()).tools}

        return await exercise(names, client.call_tool)


READERS = {
    "cursor.mcp.json": from_url_entry,
    "claude-code.mcp.json": from_url_entry,
    "claude-code.sh": from_claude_mcp_add,
    "claude-desktop.json": from_mcp_remote,
}


@pytest.mark.parametrize("snippet", sorted(READERS))
def test_an_http_snippet_connects_lists_the_tools_and_remembers(
    snippet: str, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    key = make_context()["key"]
    connect = READERS[snippet](filled(snippet, live.url, key))
    tools, written = asyncio.run(remember_and_recall(connect))
    assert {"remember", "recall", "profile", "state"} <= tools
    assert written["held"] is False


def test_the_stdio_snippet_starts_memwarden_mcp_on_the_database(
    live: LiveServer, make_context: Callable[..., dict[str, Any]], settings: Settings
) -> None:
    key = make_context()["key"]
    text = filled("claude-desktop-stdio.json", live.url, key, settings.database_url or "")
    tools, written = asyncio.run(remember_and_recall(from_stdio_entry(text)))
    assert {"remember", "recall"} <= tools and written["held"] is False


def test_the_agents_sdk_snippet_gives_an_mcp_server_with_memwardens_tools(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    path = SNIPPETS / "openai_agents.py"
    spec = importlib.util.spec_from_file_location("openai_agents_snippet", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    key = make_context()["key"]

    async def scenario() -> tuple[set[str], dict[str, Any]]:
        async with module.memwarden_server(live.url, key) as server:

            async def names() -> set[str]:
                return {tool.name for tool in await server.list_tools()}

            return await exercise(names, server.call_tool)

    tools, written = asyncio.run(scenario())
    assert {"remember", "recall"} <= tools and written["held"] is False


def test_every_snippet_is_in_the_doc_as_it_is_in_its_file() -> None:
    doc = DOC.read_text()
    for path in sorted(SNIPPETS.iterdir()):
        text = path.read_text()
        shown = "\n".join(line for line in text.splitlines() if not line.startswith("#!"))
        if path.suffix == ".py":
            shown = text[text.index("from agents import") :]
        assert shown.strip() in doc, f"{path.name} is not shown in docs/clients/mcp.md"
