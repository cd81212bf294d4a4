"""Every limit /openapi.json states on a query parameter is the limit the service enforces
(issue 15, finding 13): walked from the live document, a value at the edge is taken and
one past it is refused with 400 naming the parameter."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer

# Opaque tokens: their format is checked in code (a cursor of the right length may still
# be one the service never issued; no string of as_of's length is a timestamp), so only
# their length limit is walked past.
OPAQUE = {"cursor", "as_of"}


def _limited(schema: dict[str, Any]) -> dict[str, Any]:
    for option in schema.get("anyOf", [schema]):
        if {"maximum", "maxLength", "maxItems"} & set(option):
            return option
    return {}


def _edges(schema: dict[str, Any]) -> tuple[Any, Any] | None:
    """(the largest value the schema allows, the smallest it refuses)."""
    if "maximum" in schema:
        return schema["maximum"], schema["maximum"] + 1
    if "maxLength" in schema:
        return "a" * schema["maxLength"], "a" * (schema["maxLength"] + 1)
    if "maxItems" in schema:
        n = schema["maxItems"]
        return [f"s{i}" for i in range(n)], [f"s{i}" for i in range(n + 1)]
    return None


def test_each_stated_query_limit_takes_its_edge_and_refuses_one_past_it(
    live: LiveServer, make_context
) -> None:
    ctx = make_context(subject="alice")
    spec = httpx.get(f"{live.url}/openapi.json").json()
    walked = []
    for path, item in spec["paths"].items():
        get = item.get("get")
        if not get or "{" in path.replace("{context_id}", ""):
            continue
        token = ADMIN_TOKEN if path.startswith("/api/v1/contexts") else ctx["key"]
        url = live.url + path.replace("{context_id}", ctx["id"])
        for param in get.get("parameters", []):
            if param["in"] != "query":
                continue
            edges = _edges(_limited(param.get("schema", {})))
            if edges is None:
                continue
            name = param["name"]
            edge, past = edges
            headers = {"Authorization": f"Bearer {token}"}
            # the operation's other required parameters, with a plain value
            extra = {
                other["name"]: "tea"
                for other in get["parameters"]
                if other["in"] == "query" and other.get("required") and other["name"] != name
            }
            refused = httpx.get(url, params={**extra, name: past}, headers=headers, timeout=60)
            assert refused.status_code == 400, (path, name, refused.text)
            assert refused.json()["error"]["field"] == name, (path, name, refused.text)
            if name in OPAQUE:
                continue
            taken = httpx.get(url, params={**extra, name: edge}, headers=headers, timeout=60)
            # taken: answered, not refused (an entity at the edge may simply not exist)
            assert taken.status_code in (200, 404), (path, name, taken.text)
            walked.append((path, name))
    # the walk reached the routes whose limits were missing or wrong before
    assert ("/api/v1/{context_id}/query", "scope") in walked
    assert ("/api/v1/{context_id}/query", "query") in walked
    assert ("/api/v1/{context_id}/usage", "days") in walked
    assert ("/api/v1/contexts", "limit") in walked
    assert ("/api/v1/{context_id}/profile", "scope") in walked


def test_profile_and_query_state_that_they_need_their_text(live: LiveServer) -> None:
    # before: `entity` and GET /query's `query` were optional, default "", in the schema,
    # and "" was refused with 400
    spec = httpx.get(f"{live.url}/openapi.json").json()
    params = spec["paths"]["/api/v1/{context_id}/query"]["get"]["parameters"]
    param = next(p for p in params if p["name"] == "query")
    assert param["required"] is True
    assert param["schema"]["minLength"] == 1
    # /profile's entity may be omitted (the caller's own speaker entity), never empty.
    params = spec["paths"]["/api/v1/{context_id}/profile"]["get"]["parameters"]
    param = next(p for p in params if p["name"] == "entity")
    assert param.get("required", False) is False
    [text] = [s for s in param["schema"]["anyOf"] if s.get("type") == "string"]
    assert text["minLength"] == 1
    body = spec["components"]["schemas"]["QueryBody"]["properties"]["query"]
    assert body["minLength"] == 1
