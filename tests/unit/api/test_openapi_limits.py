"""/openapi.json states the limits the code enforces (issue 15, finding 13): a client built
from it sends nothing the service refuses for size, and knows when 409 can answer."""

from __future__ import annotations

from typing import Any

import pytest

from memwarden.api.app import create_app
from memwarden.api.middleware import limit_for, route_limits
from memwarden.api.openapi import BODY_LIMIT_KEY
from memwarden.chat.contract import MAX_MESSAGE_CHARS
from memwarden.limits import (
    BATCH_BODY_LIMIT,
    DEFAULT_BODY_LIMIT,
    DOCUMENT_BODY_LIMIT,
    FACTS_BODY_LIMIT,
    MAX_BATCH_CHARS,
    MAX_TURN_CHARS,
)
from memwarden.pipeline.batch import MAX_BATCH

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def _schema(spec: dict[str, Any], name: str) -> dict[str, Any]:
    return spec["components"]["schemas"][name]


def _body_ops(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op["requestBody"])
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in METHODS and "requestBody" in op
    ]


def test_every_body_states_the_byte_limit_the_middleware_enforces(spec: dict[str, Any]) -> None:
    ops = _body_ops(spec)
    assert ops
    limits = route_limits()
    for path, method, body in ops:
        assert body[BODY_LIMIT_KEY] == limit_for(method.upper(), path, limits), (method, path)
        assert f"{body[BODY_LIMIT_KEY]:,} bytes" in body["description"], (method, path)


def test_the_large_bodies_are_the_routes_that_carry_content(spec: dict[str, Any]) -> None:
    stated = {(m, p): b[BODY_LIMIT_KEY] for p, m, b in _body_ops(spec)}
    assert stated[("post", "/api/v1/{context_id}/facts")] == FACTS_BODY_LIMIT
    assert stated[("post", "/api/v1/{context_id}/facts/batch")] == BATCH_BODY_LIMIT
    assert stated[("post", "/api/v1/{context_id}/documents")] == DOCUMENT_BODY_LIMIT
    assert stated[("post", "/api/v1/{context_id}/query")] == DEFAULT_BODY_LIMIT


def test_the_text_limits_are_in_the_schema(spec: dict[str, Any]) -> None:
    facts = _schema(spec, "FactsBody")["properties"]
    assert facts["text"]["maxLength"] == MAX_TURN_CHARS
    items = _schema(spec, "BatchBody")["properties"]["items"]
    assert (items["minItems"], items["maxItems"]) == (1, MAX_BATCH)
    assert f"{MAX_BATCH_CHARS:,} characters" in items["description"]
    assert _schema(spec, "ChatBody")["properties"]["message"]["maxLength"] == MAX_MESSAGE_CHARS


def test_the_longest_text_fits_the_body_limit_however_it_is_escaped() -> None:
    # an astral character is one character and 12 bytes of JSON (`\ud83d\ude00`)
    assert MAX_TURN_CHARS * 12 + 1024 <= FACTS_BODY_LIMIT
    assert MAX_BATCH_CHARS * 12 + MAX_BATCH * 1024 <= BATCH_BODY_LIMIT


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/v1/memory/commands"),
        ("post", "/api/v1/memory/embeddings"),
        ("post", "/api/v1/memory/reviews"),
        ("post", "/api/v1/{context_id}/judgements/{judgement_id}/approve"),
        ("post", "/api/v1/{context_id}/judgements/{judgement_id}/reject"),
        ("post", "/api/v1/{context_id}/turns/{turn_id}/reprocess"),
        ("post", "/api/v1/{context_id}/documents/{document_id}/reprocess"),
    ],
)
def test_409_is_documented_where_a_use_case_raises_conflict(
    spec: dict[str, Any], method: str, path: str
) -> None:
    assert "409" in spec["paths"][path][method]["responses"]


def test_409_is_not_promised_where_nothing_conflicts(spec: dict[str, Any]) -> None:
    assert "409" not in spec["paths"]["/api/v1/{context_id}/query"]["post"]["responses"]
    assert "409" not in spec["paths"]["/api/v1/{context_id}/facts"]["post"]["responses"]
