"""Small request builders for the memory contract tests."""

from __future__ import annotations

import math
from typing import Any

import httpx

SCOPE: dict[str, Any] = {
    "project_id": "p1",
    "mission_id": None,
    "agent_id": "a1",
    "visibility": "shared",
}
PRIVATE: dict[str, Any] = {**SCOPE, "visibility": "private"}


def ok(resp: httpx.Response) -> dict[str, Any]:
    assert resp.status_code == 200, resp.text
    return resp.json()


def error_code(resp: httpx.Response) -> str:
    return resp.json()["error"]["code"]


def create(
    client: httpx.Client, text: str, scope: dict[str, Any] | None = None, **command: Any
) -> tuple[str, int]:
    body = {
        "scope": dict(scope or SCOPE),
        "command": {"contract_version": 1, "op": "create", "content": text, **command},
    }
    out = ok(client.post("/api/v1/memory/commands", json=body))
    return out["record_id"], out["revision"]


def command(
    client: httpx.Client, op: str, scope: dict[str, Any] | None = None, **fields: Any
) -> httpx.Response:
    body = {"scope": dict(scope or SCOPE), "command": {"contract_version": 1, "op": op, **fields}}
    return client.post("/api/v1/memory/commands", json=body)


def decide_body(
    record_id: str,
    expected_revision: int,
    disposition: str = "approved",
    evidence_ref: str = "case://quality/1",
    scope: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    cmd: dict[str, Any] = {
        "contract_version": 1,
        "record_id": record_id,
        "expected_revision": expected_revision,
        "disposition": disposition,
        "evidence_ref": evidence_ref,
    }
    if idempotency_key is not None:
        cmd["idempotency_key"] = idempotency_key
    return {"scope": dict(scope or SCOPE), "command": cmd}


def decide(client: httpx.Client, record_id: str, revision: int, **kw: Any) -> httpx.Response:
    return client.post("/api/v1/memory/reviews", json=decide_body(record_id, revision, **kw))


def post(
    client: httpx.Client, route: str, scope: dict[str, Any] | None = None, **fields: Any
) -> httpx.Response:
    body = {"contract_version": 1, "scope": dict(scope or SCOPE), **fields}
    return client.post(f"/api/v1/memory/{route}", json=body)


def read(client: httpx.Client, record_id: str, scope: dict[str, Any] | None = None):
    return post(client, "read", scope, record_id=record_id)


def state(client: httpx.Client, record_id: str, scope: dict[str, Any] | None = None):
    return post(client, "reviews/state", scope, record_id=record_id)


def search(client: httpx.Client, scope: dict[str, Any] | None = None, **fields: Any):
    return post(client, "search", scope, **fields)


def search_ids(client: httpx.Client, **fields: Any) -> list[str]:
    return [h["record"]["id"] for h in ok(search(client, **fields))["hits"]]


def unit_vector(index: int, other: int | None = None, weight: float = 0.0) -> list[float]:
    """A 384-dimension vector along axis `index`, optionally tilted toward `other`."""
    values = [0.0] * 384
    values[index] = 1.0
    if other is not None:
        values[other] = weight
    norm = math.sqrt(sum(v * v for v in values))
    return [v / norm for v in values]


def attach(client: httpx.Client, record_id: str, revision: int, vector: list[float]):
    return post(client, "embeddings", record_id=record_id, revision=revision, vector=vector)
