"""Admin API through real HTTP: Contexts, keys, revocation, expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from tests.conftest import ADMIN_TOKEN


def test_admin_creates_a_context_and_gets_its_id(admin: httpx.Client) -> None:
    resp = admin.post("/api/v1/contexts", json={"name": "demo"})
    assert resp.status_code == 201
    body = resp.json()
    assert body["name"] == "demo" and len(body["id"]) == 36


def test_a_key_is_shown_once_and_listed_without_its_secret(admin: httpx.Client) -> None:
    cid = admin.post("/api/v1/contexts", json={"name": "demo"}).json()["id"]
    issued = admin.post(
        f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": ["memory_read"]}
    )
    assert issued.status_code == 201
    secret = issued.json()["key"]
    assert secret.startswith("mwk_")
    listed = admin.get(f"/api/v1/contexts/{cid}/keys").json()["keys"]
    assert [k["id"] for k in listed] == [issued.json()["id"]]
    assert secret not in str(listed) and "key" not in listed[0]


def test_revoking_a_key_refuses_it_at_once(admin: httpx.Client, live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        assert client.get(f"/api/v1/contexts/{ctx['id']}/config").status_code == 200
        revoked = admin.delete(f"/api/v1/contexts/{ctx['id']}/keys/{ctx['key_id']}")
        assert revoked.status_code == 200
        resp = client.get(f"/api/v1/contexts/{ctx['id']}/config")
    assert resp.status_code == 401
    assert resp.json()["error"]["code"] == "unauthorized"


def test_an_expired_key_is_refused(admin: httpx.Client, live, make_context) -> None:
    soon = datetime.now(UTC) + timedelta(seconds=1)
    ctx = make_context(expires_at=soon.isoformat())
    import time

    time.sleep(1.2)
    with live.client(ctx["key"]) as client:
        assert client.get(f"/api/v1/contexts/{ctx['id']}/config").status_code == 401


def test_a_key_that_expires_in_the_past_cannot_be_issued(admin: httpx.Client) -> None:
    cid = admin.post("/api/v1/contexts", json={"name": "demo"}).json()["id"]
    past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    resp = admin.post(
        f"/api/v1/contexts/{cid}/keys",
        json={"subject": "a", "grants": ["memory_read"], "expires_at": past},
    )
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "expires_at"


def test_unknown_capability_is_a_400_naming_the_field(admin: httpx.Client) -> None:
    cid = admin.post("/api/v1/contexts", json={"name": "demo"}).json()["id"]
    resp = admin.post(f"/api/v1/contexts/{cid}/keys", json={"subject": "a", "grants": ["root"]})
    assert resp.status_code == 400
    assert resp.json()["error"]["field"] == "grants"


def test_a_context_key_cannot_create_contexts(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = client.post("/api/v1/contexts", json={"name": "other"})
    assert resp.status_code == 403


def test_a_wrong_admin_token_is_401(live) -> None:
    with live.client(ADMIN_TOKEN + "x") as client:
        assert client.post("/api/v1/contexts", json={"name": "x"}).status_code == 401


def test_keys_for_an_unknown_context_are_404_for_the_admin(admin: httpx.Client) -> None:
    resp = admin.post(
        "/api/v1/contexts/00000000-0000-4000-8000-000000000000/keys",
        json={"subject": "a", "grants": ["memory_read"]},
    )
    assert resp.status_code == 404


def test_a_context_created_with_an_owner_gets_a_key_with_every_grant(
    admin: httpx.Client, live
) -> None:
    resp = admin.post("/api/v1/contexts", json={"name": "owned", "owner_subject": "alice"})
    assert resp.status_code == 201
    body = resp.json()
    owner = body["owner_key"]
    assert owner["subject"] == "alice" and owner["context_id"] == body["id"]
    assert owner["grants"] == sorted(
        ["grant:manage", "memory_read", "memory_review", "memory_write"]
    )
    with live.client(owner["key"]) as client:
        assert client.get(f"/api/v1/contexts/{body['id']}/keys").status_code == 200
    actions = [e["action"] for e in admin.get(f"/api/v1/{body['id']}/audit").json()["events"]]
    assert actions == ["key.create", "context.create"]


def test_a_context_created_without_an_owner_has_no_key(admin: httpx.Client) -> None:
    body = admin.post("/api/v1/contexts", json={"name": "bare"}).json()
    assert "owner_key" not in body
    assert admin.get(f"/api/v1/contexts/{body['id']}/keys").json()["keys"] == []


def test_a_bad_owner_subject_creates_nothing(admin: httpx.Client) -> None:
    resp = admin.post("/api/v1/contexts", json={"name": "x", "owner_subject": "   "})
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "subject"
    assert admin.get("/api/v1/contexts").json()["contexts"] == []


def test_no_principal_may_take_the_administrators_subject(admin: httpx.Client) -> None:
    """Otherwise that principal's private records would be the admin identity's too."""
    cid = admin.post("/api/v1/contexts", json={"name": "x"}).json()["id"]
    for subject in ("admin", "Admin", "operator"):
        resp = admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": subject, "grants": ["memory_read"]}
        )
        assert resp.status_code == 400, resp.text
        assert resp.json()["error"]["field"] == "subject"
    owned = admin.post("/api/v1/contexts", json={"name": "y", "owner_subject": "admin"})
    assert owned.status_code == 400
    assert [c["name"] for c in admin.get("/api/v1/contexts").json()["contexts"]] == ["x"]
