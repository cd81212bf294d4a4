"""Log hygiene (issue 15, standing campaign): a workload whose content, keys and refused
input carry unique marker tokens, then every line the server logged and a dump of every
table scanned. Keys never appear in either; refused (denied) content never appears in
either; memory content never appears in the logs (it is in the database, as it should be).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN
from tests.integration.judge.helpers import table_texts
from tests.support.live import LiveServer
from tests.support.replies import PASS_VERDICT, rows_reply, verdict
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models


def marker(kind: str) -> str:
    return f"{kind}{uuid.uuid4().hex[:12]}"


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    return live_with(
        run_worker=True,
        **scripted_models(
            scripted, model_judge="openai:judge-model", model_chat="openai:chat-model"
        ),
    )


def _judge(deny: set[str]) -> Callable[[Any], Reply]:
    def answer(request: Any) -> Reply:
        denied = any(token in request.user for token in deny)
        return verdict("deny", "policy") if denied else Reply.json(PASS_VERDICT)

    return answer


def _wait_document(client: httpx.Client, cid: str, doc_id: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if client.get(f"/api/v1/{cid}/documents/{doc_id}").json()["status"] in (
            "processed",
            "failed",
        ):
            return
        time.sleep(0.2)
    raise AssertionError(f"document {doc_id} not finished")


def test_no_key_no_denied_input_and_no_memory_content_reaches_the_logs(
    live: LiveServer,
    scripted: ScriptedModelServer,
    admin: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
    db_url: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    content = [marker("memcontent") for _ in range(6)]
    denied = [marker("deniedinput") for _ in range(2)]
    refused = [marker("refusedinput") for _ in range(4)]
    scripted.respond_with("judge", _judge(set(denied)))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    scripted.respond_with("chat", Reply.text(f"You said {content[3]}."))
    ctx = make_context("hygiene")
    admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"judge": {"enabled": True}})
    capfd.readouterr()  # the scan covers the workload from here
    cid = ctx["id"]
    with live.client(ctx["key"]) as client:
        assert (
            client.post(f"/api/v1/{cid}/facts", json={"text": f"I love {content[0]}."})
        ).status_code == 201
        assert client.post(
            f"/api/v1/{cid}/facts/batch", json={"items": [{"text": f"I like {content[1]}."}]}
        ).status_code in (200, 201)
        assert client.post(f"/api/v1/{cid}/query", json={"query": content[0]}).status_code == 200
        assert client.get(f"/api/v1/{cid}/query", params={"query": content[2]}).status_code == 200
        assert client.get(f"/api/v1/{cid}/profile", params={"entity": content[2]}).status_code in (
            200,
            404,
        )
        chat = client.post(
            f"/api/v1/{cid}/chat", json={"message": f"Remember {content[3]}.", "remember": True}
        )
        assert chat.status_code == 200, chat.text
        upload = client.post(
            f"/api/v1/{cid}/documents",
            files={"file": (f"{content[4]}.txt", f"Notes on {content[5]}.".encode(), "text/plain")},
        )
        assert upload.status_code == 202
        _wait_document(client, cid, upload.json()["id"])
        # Denied by the judge: 422 request_denied, no trace anywhere.
        for token in denied:
            resp = client.post(f"/api/v1/{cid}/facts", json={"text": f"Mallory says {token}"})
            assert resp.status_code == 422, resp.text
        # Refused before any judge: an unknown field, a NUL byte, a bad scope, a bad cursor.
        assert (
            client.post(
                f"/api/v1/{cid}/facts", json={"text": "x", refused[0]: refused[0]}
            ).status_code
            == 400
        )
        assert (
            client.post(f"/api/v1/{cid}/facts", json={"text": f"a\u0000{refused[1]}"}).status_code
            == 400
        )
        assert (
            client.get(
                f"/api/v1/{cid}/query", params={"query": "x", "scope": f"../{refused[2]}\u0000"}
            ).status_code
            == 400
        )
        assert client.get(
            f"/api/v1/{cid}/documents", params={"cursor": refused[3]}
        ).status_code in (
            400,
            404,
        )
    # Keys that do not exist, and a key of the right shape in the wrong place.
    fake_key = f"mwk_{uuid.uuid4().hex}_{marker('fakekey')}"
    with live.client(fake_key) as stranger:
        assert stranger.get(f"/api/v1/{cid}/state").status_code == 401
    with live.client(ctx["key"]) as client:
        assert client.get("/api/v1/contexts").status_code == 403
    with live.client() as anon:
        anon.get("/health")  # the last access line: everything before it is written
    time.sleep(0.5)
    out, err = capfd.readouterr()
    logged = out + err
    assert '"event": "request"' in logged  # the scan really saw the access log

    secrets = {"admin token": ADMIN_TOKEN, "context key": ctx["key"], "fake key": fake_key}
    key_secret = ctx["key"].rsplit("_", 1)[-1]
    leaks = [name for name, value in secrets.items() if value in logged]
    leaks += ["key secret part"] if key_secret in logged else []
    leaks += [f"memory content {t}" for t in content if t in logged]
    leaks += [f"denied input {t}" for t in denied if t in logged]
    leaks += [f"refused input {t}" for t in refused if t in logged]
    assert not leaks, f"in the logs: {leaks}"

    dump = "\n".join(table_texts(db_url).values())
    assert content[0] in dump  # the workload really wrote memory
    in_db = [name for name, value in secrets.items() if value in dump]
    in_db += ["key secret part"] if key_secret in dump else []
    in_db += [f"denied input {t}" for t in denied if t in dump]
    in_db += [f"refused input {t}" for t in refused if t in dump]
    assert not in_db, f"in the database: {in_db}"
