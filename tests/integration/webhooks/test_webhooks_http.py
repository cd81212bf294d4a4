"""The webhook routes over real HTTP: grant:manage, another Context's ids, validation, the
secret shown once, pagination, PATCH, rotation, deletion, the audit trail; and a live
server's in-process worker delivering a write's event without waiting for the sweep."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from memwarden.webhooks.signature import verify
from tests.integration.review.helpers import create
from tests.integration.test_openapi_responses import own_context
from tests.support.live import LiveServer
from tests.support.webhook_receiver import WebhookReceiver

HOOK = "http://127.0.0.1:9/hook"


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


@pytest.fixture
def alice(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client


def _path(ctx: dict[str, Any], rest: str = "") -> str:
    return f"/api/v1/{ctx['id']}/webhooks{rest}"


def _make(client: httpx.Client, ctx: dict[str, Any], **body: Any) -> dict[str, Any]:
    resp = client.post(_path(ctx), json={"url": HOOK, "events": ["created"], **body})
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_a_subscription_answers_its_secret_once_and_never_again(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    made = _make(alice, ctx, events=["judge_fail", "created"], description="crm sync")
    assert made["secret"].startswith("whsec_")
    assert made["events"] == ["created", "judge_fail"]
    assert (made["status"], made["include_content"], made["created_by"]) == (
        "active",
        False,
        "alice",
    )
    assert made["key_id"] == ctx["key_id"]
    shown = alice.get(_path(ctx, f"/{made['id']}"))
    assert shown.status_code == 200 and "secret" not in shown.json()
    listed = alice.get(_path(ctx)).json()
    assert [w["id"] for w in listed["webhooks"]] == [made["id"]]
    assert made["secret"] not in shown.text + str(listed)


def test_unknown_event_kinds_and_bad_urls_are_400_naming_the_field(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    bad_kind = alice.post(_path(ctx), json={"url": HOOK, "events": ["created", "judge fail"]})
    assert bad_kind.status_code == 400
    assert bad_kind.json()["error"]["field"] == "events"
    for url in ("ftp://example.com/x", "http://u:p@example.com/", "http:///nohost"):
        resp = alice.post(_path(ctx), json={"url": url, "events": ["created"]})
        assert (resp.status_code, resp.json()["error"]["field"]) == (400, "url"), url
    made = _make(alice, ctx)
    patched = alice.patch(_path(ctx, f"/{made['id']}"), json={"events": ["nope"]})
    assert (patched.status_code, patched.json()["error"]["field"]) == (400, "events")


def test_a_host_outside_the_deployment_s_allow_list_is_refused(
    live_with: Callable[..., LiveServer],
) -> None:
    server = live_with(webhook_allowed_hosts="hooks.example.com,127.0.0.1")
    ctx = own_context(server)
    with server.client(ctx["key"]) as client:
        refused = client.post(_path(ctx), json={"url": "http://10.0.0.1/x", "events": ["created"]})
        assert (refused.status_code, refused.json()["error"]["field"]) == (400, "url")
        assert client.post(_path(ctx), json={"url": HOOK, "events": ["created"]}).status_code == 201


def test_the_admin_token_has_no_webhooks_a_subscription_can_carry_content(
    admin: httpx.Client, ctx: dict[str, Any]
) -> None:
    resp = admin.post(_path(ctx), json={"url": HOOK, "events": ["created"]})
    assert (resp.status_code, resp.json()["error"]["code"]) == (403, "context_key_required")


def test_without_grant_manage_every_webhook_route_is_403(
    live: LiveServer, ctx: dict[str, Any], alice: httpx.Client, make_key: Callable[..., str]
) -> None:
    made = _make(alice, ctx)
    reader = make_key(ctx["id"], ["memory_read", "memory_write", "memory_review"])
    one = f"/{made['id']}"
    calls = [
        ("POST", "", {"url": HOOK, "events": ["created"]}),
        ("GET", "", None),
        ("GET", one, None),
        ("PATCH", one, {"active": False}),
        ("DELETE", one, None),
        ("POST", f"{one}/rotate-secret", None),
        ("GET", f"{one}/deliveries", None),
    ]
    with live.client(reader) as client:
        for method, rest, body in calls:
            resp = client.request(method, _path(ctx, rest), json=body)
            assert resp.status_code == 403, (method, rest, resp.text)
    assert alice.get(_path(ctx, one)).json()["status"] == "active"


def test_another_context_s_subscription_is_404_and_its_path_403(
    live: LiveServer,
    ctx: dict[str, Any],
    alice: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
) -> None:
    other = make_context("other", subject="olga")
    with live.client(other["key"]) as olga:
        theirs = _make(olga, other)
        assert olga.get(_path(ctx)).status_code == 403
    one = f"/{theirs['id']}"
    for method, rest, body in [
        ("GET", one, None),
        ("PATCH", one, {"active": False}),
        ("DELETE", one, None),
        ("POST", f"{one}/rotate-secret", None),
        ("GET", f"{one}/deliveries", None),
    ]:
        resp = alice.request(method, _path(ctx, rest), json=body)
        assert resp.status_code == 404, (method, rest, resp.text)


def test_patch_rotate_and_delete_change_what_they_say_and_are_audited_without_secrets(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    made = _make(alice, ctx)
    one = _path(ctx, f"/{made['id']}")
    paused = alice.patch(one, json={"active": False, "events": ["deleted", "created"]}).json()
    assert (paused["status"], paused["paused_reason"], paused["events"]) == (
        "paused",
        "manual",
        ["created", "deleted"],
    )
    resumed = alice.patch(one, json={"active": True, "include_content": True}).json()
    assert (resumed["status"], resumed["paused_reason"], resumed["include_content"]) == (
        "active",
        None,
        True,
    )
    rotated = alice.post(f"{one}/rotate-secret").json()
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != made["secret"]
    assert alice.delete(one).json() == {"id": made["id"], "deleted": True}
    assert alice.get(one).status_code == 404
    audit = alice.get(f"/api/v1/{ctx['id']}/audit", params={"action": "webhook."})
    actions = [e["action"] for e in audit.json()["events"]]
    assert actions == [
        "webhook.delete",
        "webhook.rotate_secret",
        "webhook.resume",
        "webhook.update",
        "webhook.create",
    ]
    assert made["secret"] not in audit.text and rotated["secret"] not in audit.text


def test_lists_page_with_cursor_and_limit(alice: httpx.Client, ctx: dict[str, Any]) -> None:
    ids = [_make(alice, ctx)["id"] for _ in range(3)]
    first = alice.get(_path(ctx), params={"limit": 2}).json()
    assert [w["id"] for w in first["webhooks"]] == ids[:2] and first["next_cursor"]
    rest = alice.get(_path(ctx), params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [w["id"] for w in rest["webhooks"]] == ids[2:] and rest["next_cursor"] is None
    bad = alice.get(_path(ctx, f"/{ids[0]}/deliveries"), params={"cursor": "x1"})
    assert (bad.status_code, bad.json()["error"]["field"]) == (400, "cursor")


def test_the_in_process_worker_delivers_a_write_without_waiting_for_the_sweep(
    live_with: Callable[..., LiveServer], make_context: Callable[..., dict[str, Any]]
) -> None:
    server = live_with(run_worker=True)
    with WebhookReceiver() as receiver, server.client() as anon:
        ctx = make_context(subject="alice")
        alice = server.client(ctx["key"])
        hook = alice.post(_path(ctx), json={"url": receiver.url, "events": ["created"]}).json()
        record_id, _ = create(alice, "The deploy key rotates every month.")
        deadline = time.monotonic() + 20
        while not receiver.delivered():
            assert time.monotonic() < deadline, "not delivered in 20 s"
            time.sleep(0.05)
        (got,) = receiver.delivered()
        assert got.event["data"]["recordId"] == record_id
        assert verify(hook["secret"], got.headers["Memwarden-Signature"], got.body)
        page = alice.get(_path(ctx, f"/{hook['id']}/deliveries")).json()
        assert [d["status"] for d in page["deliveries"]] == ["delivered"]
        alice.close()
        assert anon.get("/health").status_code == 200
