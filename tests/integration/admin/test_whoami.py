"""GET /api/v1/whoami through real HTTP: a key learns its Context, principal and grants."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.conftest import ALL_GRANTS


def test_a_key_learns_its_context_principal_and_grants(
    live, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context("whoami-demo")
    with live.client(ctx["key"]) as client:
        resp = client.get("/api/v1/whoami")
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["context_id"] == ctx["id"]
    assert body["context_name"] == "whoami-demo"
    assert body["key_id"] == ctx["key_id"]
    assert body["subject"] == "alice"
    assert body["grants"] == {cap: [""] for cap in ALL_GRANTS}
    assert body["key_grants"] == sorted(ALL_GRANTS)
    assert body["key_scope"] is None and body["expires_at"] is None
    assert ctx["key"].split("_")[2] not in resp.text  # never the secret


def test_a_narrowed_key_sees_only_the_grants_and_scope_it_carries(
    live, make_context: Callable[..., dict[str, Any]], make_key: Callable[..., str]
) -> None:
    ctx = make_context()
    key = make_key(
        ctx["id"],
        ["memory_read", "memory_write"],
        subject="bob",
        scope="org/acme",
        expires_at="2999-01-01T00:00:00+00:00",
    )
    with live.client(key) as client:
        body = client.get("/api/v1/whoami").json()
    assert body["context_id"] == ctx["id"] and body["subject"] == "bob"
    assert body["grants"] == {"memory_read": ["org/acme"], "memory_write": ["org/acme"]}
    assert body["key_grants"] == ["memory_read", "memory_write"]
    assert body["key_scope"] == "org/acme"
    assert body["expires_at"].startswith("2999-01-01")


def test_whoami_without_a_key_or_with_a_bad_one_is_401(live, anon: httpx.Client) -> None:
    assert anon.get("/api/v1/whoami").status_code == 401
    for token in ("garbage", "mwk_" + "0" * 32 + "_nope"):
        with live.client(token) as client:
            resp = client.get("/api/v1/whoami")
        assert resp.status_code == 401
        assert resp.json()["error"]["code"] == "unauthorized"


def test_a_revoked_key_cannot_ask_who_it_is(
    live, admin: httpx.Client, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context()
    admin.delete(f"/api/v1/contexts/{ctx['id']}/keys/{ctx['key_id']}")
    with live.client(ctx["key"]) as client:
        assert client.get("/api/v1/whoami").status_code == 401


def test_the_admin_token_is_told_it_belongs_to_no_context(admin: httpx.Client) -> None:
    resp = admin.get("/api/v1/whoami")
    assert resp.status_code == 400
    error = resp.json()["error"]
    assert error["code"] == "context_key_required"
    assert "admin token" in error["message"]


def test_whoami_is_documented_with_its_answer_model_and_no_403(live) -> None:
    operation = live.app.openapi()["paths"]["/api/v1/whoami"]["get"]
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/WhoAmI"}
    assert "403" not in operation["responses"]
    assert {"400", "401", "429", "503"} <= set(operation["responses"])
