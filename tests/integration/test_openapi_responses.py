"""The 2xx response schemas of /openapi.json match what the routes really answer (issue 15,
finding 13): each documented route is called over real HTTP with data that fills its
optional parts (a supersession, a processed document, a next page), and every body is
validated against the live document's schema for its status."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from tests.support.live import LiveServer
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

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


def conforms(spec: dict[str, Any], template: str, resp: httpx.Response) -> dict[str, Any]:
    """The body validates against the schema documented for (method, template, status)."""
    method = resp.request.method.lower()
    assert 200 <= resp.status_code < 300, (template, resp.status_code, resp.text)
    documented = spec["paths"][template][method]["responses"]
    assert str(resp.status_code) in documented, (template, resp.status_code, resp.text)
    schema = documented[str(resp.status_code)]["content"]["application/json"]["schema"]
    assert "$ref" in schema, (template, schema)  # a named model, not a plain object
    validator = Draft202012Validator({**schema, "components": spec["components"]})
    body = resp.json()
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(body)]
    assert not errors, (template, errors)
    return body


def test_write_and_recall_answers_match_their_documented_schemas(
    spec: dict[str, Any], client: httpx.Client, ctx: dict[str, Any]
) -> None:
    base = "/api/v1/{context_id}"
    cid = ctx["id"]
    first = conforms(
        spec,
        f"{base}/facts",
        client.post(f"/api/v1/{cid}/facts", json={"text": "My favourite food is durian."}),
    )
    assert first["held"] is False
    conforms(
        spec,
        f"{base}/facts",
        client.post(f"/api/v1/{cid}/facts", json={"text": "My favourite food is mango."}),
    )
    batch = conforms(
        spec,
        f"{base}/facts/batch",
        client.post(
            f"/api/v1/{cid}/facts/batch",
            json={"items": [{"text": "I live in Lisbon."}, {"text": "I work at Acme."}]},
        ),
    )
    assert len(batch["extractions"]) == 2
    hits = conforms(
        spec,
        f"{base}/query",
        client.post(
            f"/api/v1/{cid}/query", json={"query": "favourite food", "include_superseded": True}
        ),
    )["hits"]
    assert hits
    conforms(spec, f"{base}/query", client.get(f"/api/v1/{cid}/query", params={"query": "Lisbon"}))
    assert any(h.get("superseded") for h in hits) and any(h["kind"] == "chunk" for h in hits)
    profile = client.get(f"/api/v1/{cid}/profile", params={"entity": "user", "history": "true"})
    assert conforms(spec, f"{base}/profile", profile)["history"]
    conforms(spec, f"{base}/state", client.get(f"/api/v1/{cid}/state"))


def test_chat_answer_matches_its_documented_schema(
    spec: dict[str, Any], client: httpx.Client, ctx: dict[str, Any], scripted: ScriptedModelServer
) -> None:
    client.post(f"/api/v1/{ctx['id']}/facts", json={"text": "My favourite food is durian."})
    scripted.respond_with("chat", Reply.text("Durian."))
    body = conforms(
        spec,
        "/api/v1/{context_id}/chat",
        client.post(f"/api/v1/{ctx['id']}/chat", json={"message": "What food do I like?"}),
    )
    assert body["answer"] == "Durian."


def test_document_answers_match_their_documented_schemas(
    spec: dict[str, Any], client: httpx.Client, ctx: dict[str, Any]
) -> None:
    cid, docs = ctx["id"], "/api/v1/{context_id}/documents"
    data = b"Notes.\n\nThe office moved to Porto in 2024. The team likes jazz.\n"
    uploaded = conforms(
        spec,
        docs,
        client.post(
            f"/api/v1/{cid}/documents",
            files={"file": ("notes.txt", io.BytesIO(data), "text/plain")},
            data={"scope": "team"},
        ),
    )
    conforms(
        spec, f"{docs}/{{document_id}}", client.get(f"/api/v1/{cid}/documents/{uploaded['id']}")
    )
    deadline = time.monotonic() + 60
    while True:
        resp = client.get(f"/api/v1/{cid}/documents/{uploaded['id']}")
        done = conforms(spec, f"{docs}/{{document_id}}", resp)
        if done["status"] in ("processed", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert done["status"] == "processed", done
    listed = conforms(spec, docs, client.get(f"/api/v1/{cid}/documents", params={"limit": 1}))
    assert listed["next_cursor"] is not None
    conforms(
        spec, f"{docs}/{{document_id}}", client.delete(f"/api/v1/{cid}/documents/{uploaded['id']}")
    )
