"""Tool-call helpers: unwrap a result's JSON, or its error, from the SDK's CallToolResult."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client
from mcp.types import CallToolResult

SCOPE: dict[str, Any] = {
    "project_id": "p1",
    "mission_id": None,
    "agent_id": "a1",
    "visibility": "shared",
}


def payload(result: CallToolResult) -> dict[str, Any]:
    """The tool's JSON: structured content, which must equal the text content."""
    assert result.content and result.content[0].type == "text"
    text = json.loads(result.content[0].text)
    if result.structured_content is not None:
        assert result.structured_content == text
    return text


def ok(result: CallToolResult) -> dict[str, Any]:
    body = payload(result)
    assert not result.is_error, body
    return body


def error(result: CallToolResult) -> dict[str, Any]:
    assert result.is_error, result
    return payload(result)["error"]


async def create(client: Client, text: str, scope: dict[str, Any] | None = None) -> tuple[str, int]:
    result = await client.call_tool(
        "memory_command",
        {
            "scope": dict(scope or SCOPE),
            "command": {"contract_version": 1, "op": "create", "content": text},
        },
    )
    body = ok(result)
    return body["record_id"], body["revision"]


async def decide(
    client: Client, record_id: str, revision: int, disposition: str = "approved", **extra: Any
) -> CallToolResult:
    command = {
        "contract_version": 1,
        "record_id": record_id,
        "expected_revision": revision,
        "disposition": disposition,
        "evidence_ref": "case://mcp/1",
        **extra,
    }
    return await client.call_tool("review_decide", {"scope": dict(SCOPE), "command": command})


async def versioned(client: Client, tool: str, **fields: Any) -> CallToolResult:
    """A call whose arguments carry contract_version and the default scope."""
    args = {"contract_version": 1, "scope": dict(SCOPE), **fields}
    return await client.call_tool(tool, args)
