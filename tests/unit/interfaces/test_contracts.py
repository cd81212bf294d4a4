"""Request models live with their use cases: MCP does not reach into the HTTP routes, and the
GET form of /query is bounded by the same model as the POST body."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from annotated_types import BaseMetadata

import memwarden
from memwarden.api.routes import recall
from memwarden.retrieval.contract import QueryBody

SRC = Path(memwarden.__file__).parent


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("path", sorted((SRC / "mcp").glob("*.py")), ids=lambda p: p.name)
def test_mcp_imports_nothing_from_the_http_api(path: Path) -> None:
    bad = {
        m for m in imported_modules(path) if m == "memwarden.api" or m.startswith("memwarden.api.")
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((SRC / "web").glob("*.py")), ids=lambda p: p.name)
def test_the_dashboard_reaches_only_use_cases_never_the_http_api_or_sql(path: Path) -> None:
    bad = {
        m
        for m in imported_modules(path)
        if m.split(".")[:2] in (["memwarden", "api"], ["memwarden", "store"]) or m == "psycopg"
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


def _bounds(item: object) -> dict[str, object]:
    """Bounds only (Ge, MaxLen, ...): a validator such as StorableText's is not a bound; that
    GET refuses the same text is tested over HTTP (tests/integration/test_unstorable_text.py)."""
    if not isinstance(item, BaseMetadata) or not dataclasses.is_dataclass(item):
        return {}
    return {k: v for k, v in dataclasses.asdict(item).items() if v is not None}


def _get_query_params() -> dict[str, dict[str, object]]:
    route = next(
        r
        for r in recall.router.routes
        if getattr(r, "path", "").endswith("/query") and "GET" in r.methods  # type: ignore[attr-defined]
    )
    params = {}
    for p in route.dependant.query_params:  # type: ignore[attr-defined]
        limits = {}
        for item in p.field_info.metadata:
            limits.update(_bounds(item))
        params[p.name] = limits
    return params


def test_get_query_takes_its_bounds_from_the_post_body_model() -> None:
    params = _get_query_params()
    for name in ("query", "limit", "scope"):
        expected = {}
        for item in QueryBody.model_fields[name].metadata:
            expected.update(_bounds(item))
        assert expected and params[name] == expected, name
