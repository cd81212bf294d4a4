"""Erasure leaves no byte of what it erased (issue 25): a marker written through every
path (facts, batch, chat, a memory command, a document the worker processes, passes over
them, a held write approved and one rejected, a replayed write), then erased, and looked
for in a full pg_dump of the database, every file under the data directory and every line
the server logged. Another subject's marker, written beside it, stays: the check sees."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from memwarden.settings import Settings
from tests.migration.dump_schema import pg_dump_path
from tests.support.live import LiveServer
from tests.support.replies import PASS_VERDICT, rows_reply, verdict
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

SCOPE = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "shared"}


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    return live_with(
        run_worker=True,
        **scripted_models(
            scripted, model_judge="openai:judge-model", model_chat="openai:chat-model"
        ),
    )


def _judge(request: Any) -> Reply:
    """warn (a hold) for texts that say `holdme`, fail for `failme`, else pass."""
    if "holdme" in request.user:
        return verdict("warn", "sensitive_inference")
    if "failme" in request.user:
        return verdict("fail", "policy")
    return Reply.json(PASS_VERDICT)


def _ok(resp: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    return resp.json()


def _until(check: Callable[[], Any], what: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what}: not after {timeout} s")


def wait_erasure(client: httpx.Client, cid: str, erasure_id: str) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        body = _ok(client.get(f"/api/v1/{cid}/erasures/{erasure_id}"))
        return body if body["status"] in ("done", "failed") else None

    return _until(done, f"erasure {erasure_id}")


def _run_pass(client: httpx.Client, cid: str, stage: str) -> None:
    run_id = _ok(client.post(f"/api/v1/{cid}/passes/{stage}/run"), 202)["runId"]

    def finished() -> bool:
        body = _ok(client.get(f"/api/v1/{cid}/passes/runs/{run_id}"))
        return body["status"] in ("done", "failed")

    _until(finished, f"{stage} run")


def write_everywhere(
    live: LiveServer, admin: httpx.Client, client: httpx.Client, cid: str, mark: str
) -> None:
    """The marker through every write path, as the Context's one key (subject alice)."""
    config = {"judge": {"enabled": True, "on_warn": "hold", "retain_inputs": True}}
    _ok(admin.patch(f"/api/v1/contexts/{cid}/config", json=config))
    base = f"/api/v1/{cid}"
    _ok(client.post(f"{base}/facts", json={"text": f"I love {mark}facts."}), 201)
    _ok(client.post(f"{base}/facts/batch", json={"items": [{"text": f"I like {mark}batch."}]}))
    _ok(client.post(f"{base}/chat", json={"message": f"Remember {mark}chat.", "remember": True}))
    command = {"contract_version": 1, "op": "create", "content": f"Note {mark}note."}
    note = _ok(client.post("/api/v1/memory/commands", json={"scope": SCOPE, "command": command}))
    # An update keeps the note's first state for as_of reads (memory_record_past).
    update = {
        "contract_version": 1,
        "op": "update",
        "record_id": note["record_id"],
        "expected_revision": note["revision"],
        "content": f"Note {mark}updated.",
    }
    _ok(client.post("/api/v1/memory/commands", json={"scope": SCOPE, "command": update}))
    # An import of texts: its items pass through import_item before they are written.
    lines = "\n".join(
        json.dumps({"id": f"t{n}", "text": f"I own {mark}import{n}."}) for n in (1, 2)
    )
    started = client.post(
        f"{base}/imports",
        params={"source_dir": "/projects/old", "format": "texts"},
        content=lines,
        headers={"Content-Type": "application/x-ndjson"},
    )
    import_id = _ok(started, 202)["importId"]
    imported = _until(
        lambda: (
            (body := _ok(client.get(f"{base}/imports/{import_id}")))["status"] in ("done", "failed")
            and body
        ),
        "import",
    )
    assert imported["status"] == "done" and imported["counts"].get("imported") == 2, imported
    upload = client.post(
        f"{base}/documents",
        files={"file": (f"{mark}file.txt", f"Notes on {mark}document.".encode(), "text/plain")},
    )
    doc_id = _ok(upload, 202)["id"]
    _until(
        lambda: _ok(client.get(f"{base}/documents/{doc_id}"))["status"] in ("processed", "failed"),
        "document",
    )
    assert _ok(client.get(f"{base}/documents/{doc_id}"))["status"] == "processed"
    # Two held writes: one approved, one rejected.
    for word, decision in (("approved", "approve"), ("rejected", "reject")):
        _ok(client.post(f"{base}/facts", json={"text": f"holdme I am {mark}{word}."}), 201)
        held = _ok(client.get(f"{base}/judgements", params={"held": True}))["judgements"]
        pending = [j for j in held if not j.get("hold_decision")]
        _ok(client.post(f"{base}/judgements/{pending[0]['id']}/{decision}"))
    # A refused write, its request kept and replayed by an override.
    refused = client.post(f"{base}/facts", json={"text": f"failme I am {mark}replayed."})
    assert refused.status_code == 422, refused.text
    failed = _ok(client.get(f"{base}/judgements", params={"verdict": "fail"}))["judgements"]
    replay = {"verdict": "pass", "replay": True}
    _ok(client.post(f"{base}/judgements/{failed[0]['id']}/override", json=replay))
    _ok(client.get(f"{base}/query", params={"query": f"{mark}facts"}))
    for stage in ("rollup", "gist"):
        _run_pass(client, cid, stage)


def database_dump(db_url: str) -> bytes:
    """Every row of every table, as pg_dump writes it."""
    out = subprocess.run(
        [str(pg_dump_path()), "--no-owner", "--no-privileges", "--dbname", db_url],
        check=True,
        capture_output=True,
    )
    return out.stdout


def files_under(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


def test_a_subject_erasure_leaves_the_marker_in_no_byte_of_the_dump_the_files_or_the_logs(
    live: LiveServer,
    scripted: ScriptedModelServer,
    admin: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
    make_key: Callable[..., str],
    db_url: str,
    settings: Settings,
    capfd: pytest.CaptureFixture[str],
) -> None:
    mark = f"zq7marker{uuid.uuid4().hex}"
    kept = f"zq7kept{uuid.uuid4().hex}"
    scripted.respond_with("judge", _judge)
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    scripted.respond_with("chat", Reply.text(f"Noted: {mark}answer."))
    ctx = make_context("erasure")
    cid = ctx["id"]
    bob_key = make_key(cid, ["memory_read", "memory_write"], subject="bob")
    with live.client(ctx["key"]) as alice, live.client(bob_key) as bob:
        _ok(bob.post(f"/api/v1/{cid}/facts", json={"text": f"I drink {kept}tea."}), 201)
        write_everywhere(live, admin, alice, cid, mark)
        assert mark.encode() in database_dump(db_url)  # the workload really stored it

        started = _ok(alice.post(f"/api/v1/{cid}/erasures", json={"subject": "alice"}), 202)
        assert started["status"] == "queued"
        done = wait_erasure(alice, cid, started["erasureId"])
        assert done["status"] == "done", done
        assert done["counts"]["records"] > 0 and done["counts"]["turns"] > 0
        assert done["counts"]["documents"] == 1 and done["counts"]["derived_records"] > 0
        assert done["counts"]["retained_inputs"] >= 1 and done["counts"]["judgements"] >= 1

        # What bob wrote, and can read, is untouched.
        hits = _ok(bob.get(f"/api/v1/{cid}/query", params={"query": f"{kept}tea"}))["hits"]
        assert any(kept in h["text"] for h in hits), "bob's own fact vanished"
        hits = _ok(alice.get(f"/api/v1/{cid}/query", params={"query": f"{mark}facts"}))["hits"]
        assert not [h for h in hits if mark in json.dumps(h)]
    time.sleep(0.3)
    logged = "".join(capfd.readouterr())
    dump = database_dump(db_url)
    files = files_under(Path(settings.data_dir))
    assert kept.encode() in dump
    leaks = [
        where
        for where, data in (("dump", dump), ("files", files), ("logs", logged.encode()))
        if mark.encode() in data
    ]
    if "dump" in leaks:
        lines = [ln for ln in dump.decode(errors="replace").splitlines() if mark in ln]
        pytest.fail(f"the marker is still in: {leaks}: {lines[:20]}")
    assert not leaks, f"the marker is still in: {leaks}"
