"""Vectors over HTTP: malformed and non-finite vectors are 400, and a search response with
vector scores is JSON. What vectors do is checked through the use cases in
tests/service/review/test_vectors.py."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.integration.review.helpers import (
    attach,
    create,
    ok,
    search,
    unit_vector,
)


@pytest.mark.parametrize(
    "vector",
    [[0.1] * 383, [0.1] * 385, [0.0] * 384, [1e39] + [0.0] * 383, ["a"] * 384],
)
def test_malformed_vectors_are_400(alice: httpx.Client, vector: list) -> None:
    rid, rev = create(alice, "x")
    assert attach(alice, rid, rev, vector).status_code == 400


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_vectors_are_400(alice: httpx.Client, token: str) -> None:
    rid, rev = create(alice, "x")
    values = ", ".join([token] + ["0.5"] * 383)
    raw = (
        '{"contract_version": 1, "scope": {"project_id": "p1", "mission_id": null, '
        f'"agent_id": "a1", "visibility": "shared"}}, "record_id": "{rid}", '
        f'"revision": {rev}, "vector": [{values}]}}'
    )
    resp = alice.post(
        "/api/v1/memory/embeddings",
        content=raw.encode(),
        headers={"content-type": "application/json"},
    )
    assert resp.status_code == 400, resp.text


def test_the_search_response_is_json_serialisable_with_vector_scores(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    ok(attach(alice, rid, rev, unit_vector(7)))
    body = ok(search(alice, vector=unit_vector(7)))
    assert json.loads(json.dumps(body))["hits"][0]["score"] == pytest.approx(1.0, abs=1e-6)
