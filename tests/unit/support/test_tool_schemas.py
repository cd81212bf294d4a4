"""The test harness's reuse of MCP tool schemas (tests/support/tool_schemas.py): a second
app's tools are what the SDK itself would make of that app's own functions."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.tools.base import Tool

from memwarden.mcp.auth import fixed_key
from memwarden.mcp.server import build_server
from tests.support import tool_schemas


def _tools() -> dict[str, Tool]:
    def no_services() -> Any:
        raise AssertionError("building the tools calls no use case")

    server = build_server(no_services, fixed_key(None))
    return {tool.name: tool for tool in server._tool_manager.list_tools()}


def test_a_second_apps_tools_have_its_own_functions_and_the_schemas_the_sdk_derives() -> None:
    tool_schemas.install()
    first, second = _tools(), _tools()
    assert first.keys() == second.keys() and len(second) >= 20
    for name, tool in second.items():
        fresh = tool_schemas._original(Tool, tool.fn, name=tool.name)
        assert tool.fn is not first[name].fn  # the closure over this app's Services
        assert tool.parameters == fresh.parameters == first[name].parameters, name
        assert tool.parameters is not first[name].parameters  # never shared between apps
        assert tool.output_schema == fresh.output_schema, name
        assert tool.description == fresh.description, name
        assert tool.annotations == first[name].annotations, name
        assert (tool.is_async, tool.context_kwarg) == (fresh.is_async, fresh.context_kwarg)


def test_a_function_with_other_defaults_gets_its_own_schema() -> None:
    tool_schemas.install()

    def make(limit: int) -> Any:
        def search(query: str, limit: int = limit) -> str:
            """Find things."""
            return query

        return search

    ten = Tool.from_function(make(10))
    twenty = Tool.from_function(make(20))
    assert ten.parameters["properties"]["limit"]["default"] == 10
    assert twenty.parameters["properties"]["limit"]["default"] == 20


def test_a_second_app_derives_no_schema_again(monkeypatch: Any) -> None:
    from mcp.server.mcpserver.tools import base

    tool_schemas.install()
    _tools()  # the first app of this process (or a repeat of it)
    derived: list[str] = []
    real = base.func_metadata

    def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        derived.append(fn.__name__)
        return real(fn, *args, **kwargs)

    monkeypatch.setattr(base, "func_metadata", counted)
    assert len(_tools()) >= 20
    assert derived == []
