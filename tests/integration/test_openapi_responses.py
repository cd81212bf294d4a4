"""The answers that are not one returned model match /openapi.json over real HTTP (issue 15,
finding 13): the chat stream's events, /health's 200 and 503, /metrics, a Context's
configuration, and routes whose models are their own (webhooks, erasures). The routes that
return their answer model are checked without a server, route by route, by
tests/unit/api/test_answer_models.py (issue 24): one definition per answer."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from tests.conftest import ADMIN_TOKEN, ALL_GRANTS
from tests.integration.chat.helpers import INSIGHT
from tests.integration.review.helpers import command, decide, post
from tests.support.live import LiveServer
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models
from tests.support.webhook_receiver import WebhookReceiver

CHAT_MODEL = "chat-model"


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """A worker (documents get processed) and a scripted chat model."""
    return live_with(
        run_worker=True, **scripted_models(scripted, model_chat=f"openai:{CHAT_MODEL}")
    )


@pytest.fixture
def spec(live: LiveServer, anon: httpx.Client) -> dict[str, Any]:
    resp = anon.get("/openapi.json")
    assert resp.status_code == 200
    return resp.json()


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context("described")


@pytest.fixture
def client(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as c:
        yield c


def own_context(server: LiveServer) -> dict[str, Any]:
    """A Context and a full key, made on `server` alone."""
    with server.client(ADMIN_TOKEN) as admin:
        cid = admin.post("/api/v1/contexts", json={"name": "described"}).json()["id"]
        body = {"subject": "alice", "grants": ALL_GRANTS}
        return {
            "id": cid,
            "key": admin.post(f"/api/v1/contexts/{cid}/keys", json=body).json()["key"],
        }


def documented(
    spec: dict[str, Any], template: str, resp: httpx.Response, media: str
) -> dict[str, Any]:
    """The media type entry documented for the answer's (method, template, status)."""
    method = resp.request.method.lower()
    responses = spec["paths"][template][method]["responses"]
    assert str(resp.status_code) in responses, (template, resp.status_code, resp.text)
    assert resp.headers["content-type"].startswith(media), resp.headers["content-type"]
    entry: dict[str, Any] = responses[str(resp.status_code)]["content"][media]
    return entry


def valid(spec: dict[str, Any], schema: dict[str, Any], value: Any, where: str) -> None:
    validator = Draft202012Validator({**schema, "components": spec["components"]})
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]
    assert not errors, (where, errors)


def conforms(
    spec: dict[str, Any], template: str, resp: httpx.Response, *, status: int | None = None
) -> dict[str, Any]:
    """The body validates against the schema documented for (method, template, status);
    a 2xx unless `status` names another."""
    if status is None:
        assert 200 <= resp.status_code < 300, (template, resp.status_code, resp.text)
    else:
        assert resp.status_code == status, (template, resp.status_code, resp.text)
    schema = documented(spec, template, resp, "application/json")["schema"]
    assert "$ref" in schema, (template, schema)  # a named model, not a plain object
    body = resp.json()
    valid(spec, schema, body, template)
    return body


def streamed(spec: dict[str, Any], template: str, resp: httpx.Response) -> list[tuple[str, Any]]:
    """Every event of a text/event-stream answer is one the document names (`itemSchema`),
    and its JSON data validates against that event's `contentSchema`."""
    assert resp.status_code == 200, (template, resp.status_code, resp.text)
    item = documented(spec, template, resp, "text/event-stream")["itemSchema"]
    content = {b["properties"]["event"]["const"]: b["properties"]["data"] for b in item["oneOf"]}
    got = []
    for block in resp.text.split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        valid(spec, item, fields, f"{template} event")
        data = json.loads(fields["data"])
        valid(spec, content[fields["event"]]["contentSchema"], data, fields["event"])
        got.append((fields["event"], data))
    return got


def test_reflection_stream_and_usage_answers_match_their_documented_schemas(
    spec: dict[str, Any],
    client: httpx.Client,
    admin: httpx.Client,
    ctx: dict[str, Any],
    scripted: ScriptedModelServer,
) -> None:
    cid = ctx["id"]
    for text in ("My favourite food is durian.", "My favourite dish is ramen."):
        assert client.post(f"/api/v1/{cid}/facts", json={"text": text}).status_code == 201
    scripted.respond_with("chat", Reply.json(INSIGHT))
    reflected = conforms(
        spec, "/api/v1/{context_id}/reflect", client.post(f"/api/v1/{cid}/reflect", json={})
    )
    assert reflected["reflectionId"] and reflected["extraction"]["attributes"]
    scripted.respond_with("chat", Reply.text("Durian, then ramen."))
    stream = "/api/v1/{context_id}/chat/stream"
    got = streamed(
        spec, stream, client.post(f"/api/v1/{cid}/chat/stream", json={"message": "Food?"})
    )
    assert [got[0][0], got[-1][0]] == ["memories", "done"] and got[0][1]["memories"]
    assert got[-1][1]["usage"]["completionTokens"] > 0
    for reader in (client, admin):
        usage = conforms(spec, "/api/v1/{context_id}/usage", reader.get(f"/api/v1/{cid}/usage"))
        assert usage["stages"]["chat"]["models"] and usage["extraction"]["by_source"]


def test_a_stream_cut_by_the_deadline_ends_with_a_documented_error_event(
    live_with: Callable[..., LiveServer], scripted: ScriptedModelServer
) -> None:
    models = scripted_models(scripted, model_chat=f"openai:{CHAT_MODEL}", request_deadline_s=2.0)
    server = live_with(**models)
    spec = server.app.openapi()
    ctx = own_context(server)
    scripted.respond_with("chat", Reply.text("word " * 40).trickled(0.3))
    with server.client(ctx["key"]) as client:
        resp = client.post(
            f"/api/v1/{ctx['id']}/chat/stream", json={"message": "hello", "remember": False}
        )
    got = streamed(spec, "/api/v1/{context_id}/chat/stream", resp)
    assert got[-1][0] == "error" and any(name == "token" for name, _ in got)


def test_feed_eligibility_audit_and_config_answers_match_their_documented_schemas(
    spec: dict[str, Any], client: httpx.Client, admin: httpx.Client, ctx: dict[str, Any]
) -> None:
    cid = ctx["id"]
    kept, _ = record(client, "The deploy key rotates monthly.")
    refused, revision = record(client, "The office cat is called Moss.")
    assert decide(client, refused, revision, disposition="rejected").status_code == 200
    changes = "/api/v1/memory/changes"
    page = conforms(spec, changes, client.get(changes, params={"limit": 1}))
    assert page["next_cursor"] is not None
    entries = conforms(spec, changes, client.get(changes))["changes"]
    assert {e["entry_type"] for e in entries} >= {"created", "reviewed"}
    eligibility = "/api/v1/memory/reviews/eligibility"
    served = conforms(spec, eligibility, post(client, "reviews/eligibility", record_id=kept))
    assert served["servable"] is True and served["blocking"] is None
    blocked = conforms(spec, eligibility, post(client, "reviews/eligibility", record_id=refused))
    assert blocked["blocking"] == {"record_id": refused, "reason": "rejected", "depth": 0}
    audit = "/api/v1/{context_id}/audit"
    for reader in (client, admin):
        page = conforms(spec, audit, reader.get(f"/api/v1/{cid}/audit", params={"limit": 1}))
        assert page["next_cursor"] is not None
    config = "/api/v1/contexts/{context_id}/config"
    conforms(spec, config, admin.get(f"/api/v1/contexts/{cid}/config"))
    patched = conforms(
        spec,
        config,
        admin.patch(f"/api/v1/contexts/{cid}/config", json={"token_budget": {"limit": 500}}),
    )
    assert patched["token_budget"] == {"limit": 500, "period": "month"}
    conforms(spec, audit, client.get(f"/api/v1/{cid}/audit", params={"action": "config."}))


def test_health_and_metrics_answers_match_their_documented_schemas(
    spec: dict[str, Any], live: LiveServer, anon: httpx.Client, admin: httpx.Client
) -> None:
    public = conforms(spec, "/health", anon.get("/health"))
    assert public["status"] == "ok" and set(public) == {"status", "database", "worker", "models"}
    operator = conforms(spec, "/health", admin.get("/health"))
    assert operator["version"] and operator["database"]["schema_version"]
    metrics = anon.get("/metrics")
    assert metrics.status_code == 200
    schema = documented(spec, "/metrics", metrics, "text/plain")["schema"]
    valid(spec, schema, metrics.text, "/metrics")
    assert "memwarden_extraction_windows_run_total" in metrics.text


def test_a_degraded_health_answer_matches_its_documented_schema(
    live_with: Callable[..., LiveServer],
) -> None:
    server = live_with()  # no worker in this process or beating in the database: degraded
    spec = server.app.openapi()
    with server.client() as anon, server.client(ADMIN_TOKEN) as admin:
        public = conforms(spec, "/health", anon.get("/health"), status=503)
        operator = conforms(spec, "/health", admin.get("/health"), status=503)
    assert public["status"] == "degraded" and public["worker"] == {"status": "none"}
    assert operator["worker"]["active_workers"] == 0


def record(client: httpx.Client, text: str) -> tuple[str, int]:
    made = command(client, "create", content=text)
    assert made.status_code == 200, made.text
    return made.json()["record_id"], made.json()["revision"]


def test_webhook_answers_match_their_documented_schemas(
    spec: dict[str, Any], client: httpx.Client, ctx: dict[str, Any]
) -> None:
    base, cid = "/api/v1/{context_id}/webhooks", ctx["id"]
    with WebhookReceiver() as receiver:
        body = {"url": receiver.url, "events": ["created"], "include_content": True}
        made = conforms(spec, base, client.post(f"/api/v1/{cid}/webhooks", json=body))
        one, path = f"{base}/{{webhook_id}}", f"/api/v1/{cid}/webhooks/{made['id']}"
        record(client, "The deploy key rotates monthly.")
        deadline = time.monotonic() + 30
        while not receiver.delivered() and time.monotonic() < deadline:
            time.sleep(0.05)
    deliveries = conforms(spec, f"{one}/deliveries", client.get(f"{path}/deliveries"))
    assert [d["status"] for d in deliveries["deliveries"]] == ["delivered"]
    conforms(spec, base, client.post(f"/api/v1/{cid}/webhooks", json=body))
    page = conforms(spec, base, client.get(f"/api/v1/{cid}/webhooks", params={"limit": 1}))
    assert page["next_cursor"] is not None
    conforms(spec, one, client.get(path))
    paused = conforms(spec, one, client.patch(path, json={"active": False}))
    assert paused["paused_reason"] == "manual"
    conforms(spec, f"{one}/rotate-secret", client.post(f"{path}/rotate-secret"))
    conforms(spec, one, client.delete(path))


def test_erasure_answers_match_their_documented_schemas(
    spec: dict[str, Any], client: httpx.Client, ctx: dict[str, Any]
) -> None:
    base, cid = "/api/v1/{context_id}/erasures", ctx["id"]
    assert client.post(f"/api/v1/{cid}/facts", json={"text": "I work at Acme."}).status_code == 201
    started = conforms(
        spec, base, client.post(f"/api/v1/{cid}/erasures", json={"subject": "alice"})
    )
    deadline = time.monotonic() + 60
    while True:
        got = client.get(f"/api/v1/{cid}/erasures/{started['erasureId']}")
        erasure = conforms(spec, f"{base}/{{erasure_id}}", got)
        if erasure["status"] in ("done", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert erasure["status"] == "done" and erasure["finishedAt"], erasure
