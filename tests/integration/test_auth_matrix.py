"""Every route against every kind of wrong credential.

Each row: method, path (with {cid}), a valid body, and the capability a key needs.
Routes that need the deployment admin credential list "admin". Add a row with every
new route; `test_every_api_route_is_in_the_matrix` fails when one is missing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from memwarden.settings import Settings
from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer
from tests.support.pg import PgCluster

ZERO = "00000000-0000-4000-8000-000000000000"

SCOPE = {"project_id": "p", "mission_id": None, "agent_id": None, "visibility": "shared"}
V1 = {"contract_version": 1, "scope": SCOPE}

Route = tuple[str, str, dict[str, Any] | None, str]

ROUTES: list[Route] = [
    ("POST", "/api/v1/contexts", {"name": "x"}, "admin"),
    ("GET", "/api/v1/contexts", None, "admin"),
    ("GET", "/api/v1/contexts/{cid}", None, "any"),
    ("GET", "/api/v1/whoami", None, "any"),
    (
        "POST",
        "/api/v1/contexts/{cid}/keys",
        {"subject": "z", "grants": ["memory_read"]},
        "grant:manage",
    ),
    ("GET", "/api/v1/contexts/{cid}/keys", None, "grant:manage"),
    ("DELETE", "/api/v1/contexts/{cid}/keys/" + ZERO, None, "grant:manage"),
    ("GET", "/api/v1/contexts/{cid}/config", None, "grant:manage"),
    ("PATCH", "/api/v1/contexts/{cid}/config", {"judge": {"enabled": False}}, "grant:manage"),
    ("GET", "/api/v1/{cid}/audit", None, "grant:manage"),
    ("GET", "/api/v1/{cid}/usage", None, "grant:manage"),
    (
        "POST",
        "/api/v1/{cid}/webhooks",
        {"url": "http://127.0.0.1:9/", "events": ["created"]},
        "grant:manage",
    ),
    ("GET", "/api/v1/{cid}/webhooks", None, "grant:manage"),
    ("GET", "/api/v1/{cid}/webhooks/" + ZERO, None, "grant:manage"),
    ("PATCH", "/api/v1/{cid}/webhooks/" + ZERO, {"active": True}, "grant:manage"),
    ("DELETE", "/api/v1/{cid}/webhooks/" + ZERO, None, "grant:manage"),
    ("POST", "/api/v1/{cid}/webhooks/" + ZERO + "/rotate-secret", None, "grant:manage"),
    ("GET", "/api/v1/{cid}/webhooks/" + ZERO + "/deliveries", None, "grant:manage"),
    ("GET", "/api/v1/memory/changes", None, "memory_read"),
    (
        "POST",
        "/api/v1/memory/commands",
        {"scope": SCOPE, "command": {"contract_version": 1, "op": "create", "content": "x"}},
        "memory_write",
    ),
    ("POST", "/api/v1/memory/read", {**V1, "record_id": ZERO}, "memory_read"),
    ("POST", "/api/v1/memory/search", {**V1, "query": "x"}, "memory_read"),
    (
        "POST",
        "/api/v1/memory/embeddings",
        {**V1, "record_id": ZERO, "revision": 1, "vector": [0.1] * 384},
        "memory_write",
    ),
    (
        "POST",
        "/api/v1/memory/reviews",
        {
            "scope": SCOPE,
            "command": {
                "contract_version": 1,
                "record_id": ZERO,
                "expected_revision": 1,
                "disposition": "approved",
                "evidence_ref": "case://1",
            },
        },
        "memory_review",
    ),
    ("POST", "/api/v1/memory/reviews/state", {**V1, "record_id": ZERO}, "memory_review"),
    (
        "POST",
        "/api/v1/memory/reviews/read",
        {**V1, "record_id": ZERO, "revision": 1},
        "memory_review",
    ),
    ("POST", "/api/v1/memory/reviews/eligibility", {**V1, "record_id": ZERO}, "memory_review"),
    ("GET", "/api/v1/{cid}/judgements", None, "grant:manage"),
    ("GET", "/api/v1/{cid}/judgements/" + ZERO, None, "grant:manage"),
    ("POST", "/api/v1/{cid}/judgements/" + ZERO + "/override", {"verdict": "pass"}, "grant:manage"),
    ("POST", "/api/v1/{cid}/judgements/" + ZERO + "/approve", None, "grant:manage"),
    ("POST", "/api/v1/{cid}/judgements/" + ZERO + "/reject", None, "grant:manage"),
    ("POST", "/api/v1/{cid}/judgements/dry-run", {"addendum": ""}, "grant:manage"),
    ("POST", "/api/v1/{cid}/facts", {"text": "I love jazz."}, "memory_write"),
    ("POST", "/api/v1/{cid}/facts/batch", {"items": [{"text": "I love jazz."}]}, "memory_write"),
    ("POST", "/api/v1/{cid}/turns/" + ZERO + "/reprocess", None, "memory_write"),
    ("POST", "/api/v1/{cid}/query", {"query": "jazz"}, "memory_read"),
    ("GET", "/api/v1/{cid}/query?query=jazz", None, "memory_read"),
    ("GET", "/api/v1/{cid}/profile?entity=alice", None, "memory_read"),
    ("GET", "/api/v1/{cid}/state", None, "memory_read"),
    (
        "POST",
        "/api/v1/{cid}/documents",
        {"__file__": ("a.txt", b"hello", "text/plain")},
        "memory_write",
    ),
    ("GET", "/api/v1/{cid}/documents", None, "memory_read"),
    ("GET", "/api/v1/{cid}/documents/" + ZERO, None, "memory_read"),
    ("POST", "/api/v1/{cid}/documents/" + ZERO + "/reprocess", None, "memory_write"),
    ("DELETE", "/api/v1/{cid}/documents/" + ZERO, None, "memory_write"),
    ("POST", "/api/v1/{cid}/chat", {"message": "hello", "remember": False}, "memory_read"),
    ("POST", "/api/v1/{cid}/chat/stream", {"message": "hello", "remember": False}, "memory_read"),
    ("POST", "/api/v1/{cid}/reflect", {}, "memory_write"),
    ("POST", "/api/v1/{cid}/hygiene/scan", {"rejudge": False}, "memory_review"),
    ("GET", "/api/v1/{cid}/hygiene/runs/" + ZERO, None, "memory_review"),
    ("GET", "/api/v1/{cid}/hygiene/queue", None, "memory_review"),
    (
        "POST",
        "/api/v1/{cid}/hygiene/queue/" + ZERO + "/resolve",
        {"resolution": "keep_both"},
        "memory_review",
    ),
    ("POST", "/api/v1/{cid}/hygiene/memories/" + ZERO + "/restore", None, "memory_review"),
    (
        "POST",
        "/api/v1/{cid}/hygiene/memories/" + ZERO + "/challenge",
        {"reason": "wrong"},
        "memory_write",
    ),
    ("POST", "/api/v1/{cid}/passes/rollup/run", None, "memory_write"),
    ("GET", "/api/v1/{cid}/passes/runs/" + ZERO, None, "memory_write"),
    ("POST", "/api/v1/{cid}/erasures", {"scopePrefix": "p"}, "grant:manage"),
    ("GET", "/api/v1/{cid}/erasures/" + ZERO, None, "grant:manage"),
    ("GET", "/api/v1/{cid}/export", None, "memory_read"),
    ("POST", "/api/v1/{cid}/imports?source_dir=/src", {"text": "I like tea."}, "memory_write"),
    ("GET", "/api/v1/{cid}/imports/" + ZERO, None, "memory_write"),
    ("GET", "/api/v1/{cid}/memories/" + ZERO + "/history", None, "memory_read"),
]

OTHER_GRANT = {
    "grant:manage": "memory_read",
    "memory_read": "memory_write",
    "memory_write": "memory_read",
    "memory_review": "memory_write",
}

PUBLIC = {"/health", "/metrics", "/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}


def _call(client: httpx.Client, route: Route, cid: str) -> httpx.Response:
    method, path, body, _ = route
    if body is not None and "__file__" in body:  # multipart upload
        return client.request(method, path.format(cid=cid), files={"file": body["__file__"]})
    return client.request(method, path.format(cid=cid), json=body)


@pytest.fixture(scope="module")
def live(cluster: PgCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the whole matrix: every test makes its own Contexts and keys."""
    name = cluster.create_database()
    settings = Settings(
        database_url=cluster.url_for(name),
        admin_token=ADMIN_TOKEN,
        data_dir=tmp_path_factory.mktemp("matrix"),
    )
    server = LiveServer(settings).start()
    yield server
    server.stop()
    cluster.drop_database(name)


@pytest.fixture
def two_contexts(make_context: Callable[..., dict[str, Any]]) -> tuple[dict, dict]:
    return make_context("mine"), make_context("theirs", subject="mallory")


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r[0]} {r[1]}")
def test_a_request_without_a_key_is_401(route: Route, anon: httpx.Client, two_contexts) -> None:
    resp = _call(anon, route, two_contexts[0]["id"])
    assert resp.status_code == 401
    assert resp.json()["error"]["code"] == "unauthorized"


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r[0]} {r[1]}")
def test_a_malformed_or_unknown_key_is_401(route: Route, live, two_contexts) -> None:
    for token in ("garbage", "mwk_" + "0" * 32 + "_nope"):
        with live.client(token) as client:
            assert _call(client, route, two_contexts[0]["id"]).status_code == 401


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r[0]} {r[1]}")
def test_a_revoked_key_is_401(route: Route, live, admin, two_contexts) -> None:
    mine = two_contexts[0]
    admin.delete(f"/api/v1/contexts/{mine['id']}/keys/{mine['key_id']}")
    with live.client(mine["key"]) as client:
        assert _call(client, route, mine["id"]).status_code == 401


@pytest.mark.parametrize(
    "route", [r for r in ROUTES if "{cid}" in r[1]], ids=lambda r: f"{r[0]} {r[1]}"
)
def test_another_tenants_context_is_403_and_reveals_nothing(
    route: Route, live, two_contexts
) -> None:
    mine, theirs = two_contexts
    with live.client(mine["key"]) as client:
        resp = _call(client, route, theirs["id"])
        missing = _call(client, route, ZERO)
    assert resp.status_code == 403
    assert missing.status_code == 403
    assert resp.json() == missing.json()


@pytest.mark.parametrize(
    "route", [r for r in ROUTES if r[3] not in ("admin", "any")], ids=lambda r: f"{r[0]} {r[1]}"
)
def test_a_key_without_the_needed_grant_is_403(route: Route, live, make_context, make_key) -> None:
    ctx = make_context()
    key = make_key(ctx["id"], [OTHER_GRANT[route[3]]], subject="carol")
    with live.client(key) as client:
        resp = _call(client, route, ctx["id"])
    assert resp.status_code == 403


@pytest.mark.parametrize(
    "route", [r for r in ROUTES if r[3] == "grant:manage"], ids=lambda r: f"{r[0]} {r[1]}"
)
def test_a_key_narrowed_to_a_scope_cannot_use_whole_context_routes(
    route: Route, live, make_context, make_key
) -> None:
    ctx = make_context()
    key = make_key(ctx["id"], ["grant:manage"], subject="dave", scope="org/acme")
    with live.client(key) as client:
        assert _call(client, route, ctx["id"]).status_code == 403


@pytest.mark.parametrize("route", [r for r in ROUTES if r[3] == "admin"], ids=lambda r: r[1])
def test_admin_routes_refuse_every_context_key(route: Route, live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        assert _call(client, route, ctx["id"]).status_code == 403


def test_every_api_route_is_in_the_matrix(live) -> None:
    """Routes come from the OpenAPI document: FastAPI includes routers lazily, so
    `app.routes` does not list them."""
    listed = [(m, p.format(cid=ZERO).split("?")[0]) for m, p, _, _ in ROUTES]
    paths = live.app.openapi()["paths"]
    assert len(paths) > 20  # the document really lists the API
    missing = []
    for path, operations in paths.items():
        if path in PUBLIC:
            continue
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        for method in operations:
            if not any(m == method.upper() and pattern.match(p) for m, p in listed):
                missing.append((method.upper(), path))
    assert not missing, f"routes missing from the auth matrix: {sorted(missing)}"


def _administration(route: Route) -> bool:
    """What the admin token is for: Contexts, keys, config, audit and usage."""
    path = route[1]
    return (
        route[3] in ("admin", "any")
        or path.startswith("/api/v1/contexts")
        or path.endswith(("/audit", "/usage"))
    )


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r[0]} {r[1]}")
def test_the_admin_token_administers_and_reads_no_memory(
    route: Route, admin: httpx.Client, make_context
) -> None:
    """One rule (README "Tenancy and access"): memory reads and writes, judgement
    excerpts and held writes included, need a Context key (finding 7 of issue 15)."""
    ctx = make_context()
    resp = _call(admin, route, ctx["id"])
    if _administration(route):
        assert resp.status_code not in (401, 403), resp.text
    else:
        assert resp.status_code == 403, resp.text
        assert resp.json()["error"]["code"] == "context_key_required"
