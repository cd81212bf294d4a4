"""Audit events for admin actions (ids only, never secrets) and the change-feed cursor."""

from __future__ import annotations

import httpx
import psycopg


def test_admin_actions_are_audited_by_id_without_secrets(admin: httpx.Client, db_url: str) -> None:
    cid = admin.post("/api/v1/contexts", json={"name": "audited"}).json()["id"]
    issued = admin.post(
        f"/api/v1/contexts/{cid}/keys", json={"subject": "eve", "grants": ["memory_read"]}
    ).json()
    admin.patch(f"/api/v1/contexts/{cid}/config", json={"prompt_addendums": {"judge": "SECRETX"}})
    admin.delete(f"/api/v1/contexts/{cid}/keys/{issued['id']}")
    events = admin.get(f"/api/v1/{cid}/audit").json()["events"]
    assert [e["action"] for e in events] == [
        "key.revoke",
        "config.update",
        "key.create",
        "context.create",
    ]
    assert events[0]["target_id"] == issued["id"]
    with psycopg.connect(db_url) as conn:
        dump = str(conn.execute("SELECT * FROM audit_event").fetchall())
    assert issued["key"] not in dump and "SECRETX" not in dump


def test_the_audit_log_is_append_only(admin: httpx.Client, db_url: str) -> None:
    admin.post("/api/v1/contexts", json={"name": "a"})
    with psycopg.connect(db_url, autocommit=True) as conn:
        for sql in ("UPDATE audit_event SET action = 'x'", "DELETE FROM audit_event"):
            try:
                conn.execute(sql)
            except psycopg.errors.RaiseException:
                continue
            raise AssertionError(f"{sql} was allowed")


def test_the_audit_log_pages_with_a_cursor(admin: httpx.Client) -> None:
    cid = admin.post("/api/v1/contexts", json={"name": "paged"}).json()["id"]
    for i in range(4):
        admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": f"s{i}", "grants": ["memory_read"]}
        )
    first = admin.get(f"/api/v1/{cid}/audit", params={"limit": 3}).json()
    assert len(first["events"]) == 3 and first["next_cursor"]
    rest = admin.get(f"/api/v1/{cid}/audit", params={"limit": 3, "cursor": first["next_cursor"]})
    ids = [e["id"] for e in first["events"] + rest.json()["events"]]
    assert len(ids) == 5 and len(set(ids)) == 5 and rest.json()["next_cursor"] is None
    # `before=` is the older spelling of `cursor=` and still answers the same page.
    old = admin.get(f"/api/v1/{cid}/audit", params={"limit": 3, "before": first["next_cursor"]})
    assert old.json() == rest.json()


def test_the_change_feed_is_read_with_the_keys_own_context(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = client.get("/api/v1/memory/changes")
    assert resp.status_code == 200
    assert resp.json() == {"changes": [], "next_cursor": None}


def test_each_contexts_feed_is_numbered_from_one_without_gaps(live, make_context) -> None:
    """Issue 15 #8: one global sequence let a Context's gaps reveal other tenants' writes."""
    feeds = []
    for name in ("first", "second"):
        ctx = make_context(name=name)
        with live.client(ctx["key"]) as client:
            for text in ("I'm Alice, CTO at Acme.", "I live in Oslo.", "I love jazz."):
                resp = client.post(f"/api/v1/{ctx['id']}/facts", json={"text": text})
                assert resp.status_code == 201, resp.text
            feeds.append(client.get("/api/v1/memory/changes", params={"limit": 1000}).json())
    for feed in feeds:
        seqs = [c["seq"] for c in feed["changes"]]
        assert len(seqs) >= 3 and seqs == list(range(1, len(seqs) + 1)), seqs


def test_the_change_feed_needs_a_context_key(admin: httpx.Client) -> None:
    assert admin.get("/api/v1/memory/changes").status_code == 403


def test_usage_is_empty_for_a_new_context(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        body = client.get(f"/api/v1/{ctx['id']}/usage").json()
    assert body["stages"] == {} and body["total_tokens"] == 0


def test_the_audit_logs_action_filter_is_applied_by_the_query_so_a_page_is_full(
    admin: httpx.Client,
) -> None:
    """Three keys issued, then five config changes on top: a page of two filtered by
    `key.` holds two key events, and the next page the third."""
    cid = admin.post("/api/v1/contexts", json={"name": "filtered"}).json()["id"]
    for i in range(3):
        admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": f"s{i}", "grants": ["memory_read"]}
        )
    for days in range(5):
        resp = admin.patch(
            f"/api/v1/contexts/{cid}/config", json={"judge": {"retention_days": 10 + days}}
        )
        assert resp.status_code == 200, resp.text
    url = f"/api/v1/{cid}/audit"
    newest = admin.get(url, params={"limit": 2}).json()["events"]
    assert [e["action"] for e in newest] == ["config.update", "config.update"]
    first = admin.get(url, params={"limit": 2, "action": "key."}).json()
    assert [e["action"] for e in first["events"]] == ["key.create", "key.create"]
    assert first["next_cursor"]
    rest = admin.get(url, params={"limit": 2, "action": "key.", "cursor": first["next_cursor"]})
    assert [e["action"] for e in rest.json()["events"]] == ["key.create"]
    assert rest.json()["next_cursor"] is None
    exact = admin.get(url, params={"action": "context.create"}).json()["events"]
    assert [e["action"] for e in exact] == ["context.create"]
