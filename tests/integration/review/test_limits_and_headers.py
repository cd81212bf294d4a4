"""Body limits and caching headers on every memory route."""

from __future__ import annotations

import httpx
import pytest

from tests.integration.review.helpers import SCOPE, create, decide_body, ok

ROUTES = [
    "commands",
    "read",
    "search",
    "embeddings",
    "reviews",
    "reviews/state",
    "reviews/read",
    "reviews/eligibility",
]


@pytest.mark.parametrize("route", ROUTES)
def test_a_body_over_64_kib_is_413(alice: httpx.Client, route: str) -> None:
    body = {"contract_version": 1, "scope": SCOPE, "padding": "x" * (64 * 1024)}
    resp = alice.post(f"/api/v1/memory/{route}", json=body)
    assert resp.status_code == 413
    assert resp.json()["error"]["code"] == "payload_too_large"
    assert resp.headers["cache-control"] == "no-store"


def test_a_body_just_under_the_limit_is_read(alice: httpx.Client) -> None:
    body = decide_body("00000000-0000-4000-8000-000000000042", 1)
    body["command"]["evidence_ref"] = "x" * 60_000
    resp = alice.post("/api/v1/memory/reviews", json=body)
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "command.evidence_ref"


def test_every_memory_route_answers_with_no_store(alice: httpx.Client) -> None:
    rid, rev = create(alice, "cache me not")
    receipt = ok(alice.post("/api/v1/memory/reviews", json=decide_body(rid, rev)))["receipt"]
    bodies = {
        "commands": {
            "scope": SCOPE,
            "command": {"contract_version": 1, "op": "create", "content": "y"},
        },
        "read": {"record_id": rid},
        "search": {"query": "cache"},
        "embeddings": {"record_id": rid, "revision": receipt["revision"], "vector": [0.5] * 384},
        "reviews/state": {"record_id": rid},
        "reviews/read": {"record_id": rid, "revision": receipt["revision"]},
        "reviews/eligibility": {"record_id": rid},
    }
    for route, extra in bodies.items():
        body = extra if route == "commands" else {"contract_version": 1, "scope": SCOPE, **extra}
        resp = alice.post(f"/api/v1/memory/{route}", json=body)
        assert resp.status_code == 200, (route, resp.text)
        assert resp.headers["cache-control"] == "no-store", route
        failed = alice.post(f"/api/v1/memory/{route}", json={"unexpected": True})
        assert failed.status_code == 400
        assert failed.headers["cache-control"] == "no-store", route
