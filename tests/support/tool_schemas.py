"""The MCP tools' argument schemas, derived once per test process instead of once per app.

Every `create_app` mounts the MCP server, and registering its tools makes the SDK build a
pydantic model and a JSON schema from each tool function's signature: about a third of a
second per app on a loaded machine, paid by every test that starts a live server. The
schema depends only on the function's code, its defaults and annotations and the names
passed to `add_tool`; the tool functions are closures made anew for each app (they hold
that app's Services). So the first registration of each (code, signature) computes the
Tool as the SDK does, and later ones copy it with their own function. A changed tool
signature is new code, and a new test process computes everything again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from typing import Any

from mcp.server.mcpserver.tools.base import Tool

_computed: dict[Hashable, Tool] = {}
_original = Tool.from_function.__func__  # type: ignore[attr-defined]


def _stable(value: Any) -> str | None:
    """A repr usable as a key: None where it names an object by address."""
    text = repr(value)
    return None if " at 0x" in text or " object at " in text else text


def _key(fn: Callable[..., Any], arguments: tuple[Any, ...]) -> Hashable | None:
    code = getattr(fn, "__code__", None)
    parts = (
        _stable(getattr(fn, "__defaults__", None)),
        _stable(getattr(fn, "__kwdefaults__", None)),
        _stable(getattr(fn, "__annotations__", None)),
        _stable(arguments),
    )
    if code is None or None in parts:
        return None
    return (code, getattr(fn, "__qualname__", None), *parts)


def _from_function(
    cls: type[Tool],
    fn: Callable[..., Any],
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    context_kwarg: str | None = None,
    annotations: Any = None,
    icons: Any = None,
    meta: dict[str, Any] | None = None,
    structured_output: bool | None = None,
) -> Tool:
    arguments = (name, title, description, context_kwarg, structured_output)
    key = _key(fn, arguments)
    first = _computed.get(key) if key is not None else None
    if first is None:
        tool: Tool = _original(
            cls,
            fn,
            name=name,
            title=title,
            description=description,
            context_kwarg=context_kwarg,
            annotations=annotations,
            icons=icons,
            meta=meta,
            structured_output=structured_output,
        )
        if key is not None:
            _computed[key] = tool
        return tool
    return first.model_copy(
        update={
            "fn": fn,
            "parameters": copy.deepcopy(first.parameters),
            "annotations": annotations,
            "icons": icons,
            "meta": meta,
        }
    )


def install() -> None:
    """Make Tool.from_function reuse the schemas it derived (tests/conftest.py calls it)."""
    Tool.from_function = classmethod(_from_function)  # type: ignore[method-assign,assignment]
