"""Model faults (issue 15, standing campaign): every stage that calls a model, against every
way a provider misbehaves (tests/support/scripted_model.py FAULTS), over real HTTP.

Each stage follows its own error rule, within the request deadline, never with a 500:
- judge and row judge under `on_error: fail`: 422 `judge_unavailable` and nothing written
  (no unjudged write);
- extraction: a provider that cannot be reached (hang, trickle, 5xx, 429) is 502
  `model_provider_error` with nothing written; a reply that cannot be used (unreadable,
  nested, huge, wrong shape) fails its window and the turn is stored chunk-only;
- chat: an unreachable provider, an unreadable envelope or a reply past the size bound is
  502 `model_provider_error`; any other text is an answer;
- a remote embedder: the write is stored, the records unembedded (recall falls back to
  text) — an embedding fault never refuses a write.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from memwarden.settings import Settings
from tests.conftest import ADMIN_TOKEN, ALL_GRANTS
from tests.support.live import LiveServer
from tests.support.pg import PgCluster
from tests.support.replies import PASS_VERDICT, attr, extraction, person, rows_reply
from tests.support.scripted_model import (
    FAULTS,
    Reply,
    ScriptedModelServer,
    fake_embedding,
    fault,
    scripted_models,
)

DEADLINE_S = 2.0
SLACK_S = 3.0  # two shared CPU cores: scheduling, the write's own work
HANG_S = 8.0  # past the deadline, inside the per-call timeout of 10 s
DIMENSIONS = 384
TEXT = "Alice is the CTO of Acme."
UNREACHABLE = {"hang", "trickle", "status_500", "status_429"}
# Chat answers text, so JSON inside it is an answer; an envelope that cannot be read, or a
# reply past the size bound, is not.
UNUSABLE_CHAT = {"garbage", "truncated", "huge"}

STAGES = ("judge", "row_judge", "extraction", "chat", "embedding")
WRITE_TABLES = ("turn", "chunk", "memory_record", "memory_revision", "change_event")


def healthy(stage: str) -> Reply:
    if stage == "judge":
        return Reply.json(PASS_VERDICT)
    if stage == "extraction":
        return Reply.json(
            extraction(entities=[person("Alice")], attributes=[attr("Alice", "role", "CTO")])
        )
    if stage == "chat":
        return Reply.text("Alice is the CTO.")
    if stage == "embedding":
        return Reply.vectors([fake_embedding(TEXT, DIMENSIONS)])
    raise AssertionError(stage)


def _rows_pass(request: Any) -> Reply:
    return rows_reply({row["id"]: "pass" for row in json.loads(request.user)})


@pytest.fixture(scope="module")
def model() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(embedding_dimensions=DIMENSIONS) as server:
        yield server


@pytest.fixture(scope="module")
def faulted(
    cluster: PgCluster, tmp_path_factory: pytest.TempPathFactory, model: ScriptedModelServer
) -> Iterator[dict[str, Any]]:
    """One server for the table: every stage on the scripted model, 10 s per call with two
    retries, a 2 s request deadline; a judged Context and a plain one."""
    name = cluster.create_database()
    changes = scripted_models(
        model,
        model_judge="openai:judge-model",
        model_extraction="openai:extraction-model",
        model_chat="openai:chat-model",
        model_embedding="openai:embedding-model",
        embedding_dimensions=DIMENSIONS,
        model_timeout_s=10.0,
        model_max_retries=2,
        request_deadline_s=DEADLINE_S,
    )
    settings = Settings(
        database_url=cluster.url_for(name),
        admin_token=ADMIN_TOKEN,
        data_dir=tmp_path_factory.mktemp("faults"),
        **changes,
    )
    server = LiveServer(settings).start()
    with server.client(ADMIN_TOKEN) as admin:
        contexts = {}
        for label, judge in (("judged", True), ("plain", False)):
            cid = admin.post("/api/v1/contexts", json={"name": label}).json()["id"]
            patch = {"judge": {"enabled": judge, "on_error": "fail"}}
            assert admin.patch(f"/api/v1/contexts/{cid}/config", json=patch).status_code == 200
            key = admin.post(
                f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": ALL_GRANTS}
            ).json()["key"]
            contexts[label] = {"id": cid, "key": key}
    yield {"server": server, "url": cluster.url_for(name), **contexts}
    server.stop()
    cluster.drop_database(name)


def _counts(url: str, cid: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {
            t: conn.execute(f"SELECT count(*) FROM {t} WHERE context_id = %s", (cid,)).fetchone()[0]
            for t in WRITE_TABLES
        }


def _script(model: ScriptedModelServer, stage: str, name: str) -> None:
    model.respond_with("judge", healthy("judge"))
    model.respond_with("row_judge", _rows_pass)
    for other in ("extraction", "chat", "embedding"):
        model.respond_with(other, healthy(other))
    model.respond_with("embedding-model", lambda r: _vectors(r))
    if stage == "row_judge":
        model.respond_with("row_judge", fault(name, Reply.json({"rows": []}), hang_s=HANG_S))
    elif stage == "embedding":
        model.respond_with("embedding-model", fault(name, healthy(stage), hang_s=HANG_S))
    else:
        model.respond_with(stage, fault(name, healthy(stage), hang_s=HANG_S))


def _vectors(request: Any) -> Reply:
    inputs = request.body.get("input")
    texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
    return Reply.vectors([fake_embedding(str(t), DIMENSIONS) for t in texts])


def _expect(stage: str, name: str, resp: httpx.Response, before: dict, after: dict) -> None:
    body = resp.json()
    if stage in ("judge", "row_judge"):
        assert resp.status_code == 422, resp.text
        assert body["error"]["code"] == "judge_unavailable"
        assert after == before  # no unjudged write
    elif stage == "extraction" and name in UNREACHABLE:
        assert resp.status_code == 502, resp.text
        assert body["error"]["code"] == "model_provider_error"
        assert after == before
    elif stage == "extraction":
        assert resp.status_code == 201, resp.text
        # A reply in none of the contract's lists reads as an empty extraction (a small
        # model omits empty lists); every other unusable reply fails its window.
        assert body["extraction"]["chunkOnly"] is (name != "wrong_schema")
        assert after["turn"] == before["turn"] + 1
        assert after["memory_record"] == before["memory_record"]
    elif stage == "chat" and (name in UNREACHABLE or name in UNUSABLE_CHAT):
        assert resp.status_code == 502, resp.text
        assert body["error"]["code"] == "model_provider_error"
        assert after == before
    elif stage == "chat":
        assert resp.status_code == 200, resp.text
        assert isinstance(body["answer"], str)
    else:  # embedding: stored, unembedded, never refused
        assert resp.status_code == 201, resp.text
        assert after["turn"] == before["turn"] + 1
        assert after["chunk"] == before["chunk"] + 1


@pytest.mark.parametrize("name", FAULTS)
@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_follows_its_error_rule_within_the_deadline(
    faulted: dict[str, Any], model: ScriptedModelServer, stage: str, name: str
) -> None:
    ctx = faulted["judged"] if stage in ("judge", "row_judge") else faulted["plain"]
    _script(model, stage, name)
    before = _counts(faulted["url"], ctx["id"])
    # A text never sent before: the embedder's short-text cache must not answer for it.
    text = f"{TEXT} Case {stage} {name}."
    with faulted["server"].client(ctx["key"], timeout=60) as client:
        started = time.monotonic()
        if stage == "chat":
            resp = client.post(
                f"/api/v1/{ctx['id']}/chat", json={"message": text, "remember": False}
            )
        else:
            resp = client.post(f"/api/v1/{ctx['id']}/facts", json={"text": text})
        took = time.monotonic() - started
    assert resp.status_code < 500 or resp.status_code == 502, resp.text
    assert took < DEADLINE_S + SLACK_S, f"{stage}/{name} took {took:.1f} s"
    _expect(stage, name, resp, before, _counts(faulted["url"], ctx["id"]))
