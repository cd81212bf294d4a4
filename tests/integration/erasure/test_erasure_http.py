"""Erasure over HTTP: who may ask, what an erased record still answers (409 `erased` to
an update, a review and a restore; its receipts and change feed stay readable), and the
audit event, which names the erasure and no content."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from memwarden.settings import Settings
from tests.integration.erasure.test_erasure_proof import database_dump, wait_erasure
from tests.integration.review.helpers import command, create, decide, error_code, ok, post
from tests.support.live import LiveServer

ZERO = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    return live_with(run_worker=True)


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context("erasing", subject="alice")


@pytest.fixture
def alice(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client


def test_an_erased_record_refuses_update_review_and_restore_and_keeps_its_receipts_and_feed(
    alice: httpx.Client, ctx: dict[str, Any], admin: httpx.Client
) -> None:
    cid = ctx["id"]
    rid, rev = create(alice, "The deploy key rotates monthly.")
    receipt = ok(decide(alice, rid, rev))["receipt"]
    started = alice.post(f"/api/v1/{cid}/erasures", json={"recordIds": [rid]})
    assert started.status_code == 202, started.text
    done = wait_erasure(alice, cid, started.json()["erasureId"])
    assert done["status"] == "done" and done["counts"]["records"] == 1
    assert done["counts"]["revisions"] >= 3  # create, review, erase

    current = ok(post(alice, "reviews/state", record_id=rid))["state"]
    assert current["deleted"] is True
    update = command(
        alice, "update", record_id=rid, expected_revision=current["revision"], content="new"
    )
    assert update.status_code == 409 and error_code(update) == "erased"
    review = decide(alice, rid, current["revision"], disposition="rejected")
    assert review.status_code == 409 and error_code(review) == "erased"
    restore = alice.post(f"/api/v1/{cid}/hygiene/memories/{rid}/restore")
    assert restore.status_code == 409 and error_code(restore) == "erased"
    gone = command(alice, "delete", record_id=rid, expected_revision=current["revision"])
    assert gone.status_code == 409
    assert post(alice, "read", record_id=rid).status_code == 404  # it never serves again

    kept = post(alice, "reviews/read", record_id=rid, revision=receipt["revision"])
    assert kept.status_code == 200 and kept.json()["receipt"]["receipt_id"] == receipt["receipt_id"]
    changes = alice.get("/api/v1/memory/changes").json()["changes"]
    assert [c["entry_type"] for c in changes if c["record_id"] == rid][-1] == "erased"
    events = admin.get(f"/api/v1/{cid}/audit").json()["events"]
    erase = [e for e in events if e["action"] == "memory.erase"]
    assert [(e["target_kind"], e["target_id"]) for e in erase] == [("erasure", done["erasureId"])]


def test_erasure_needs_grant_manage_over_what_it_names(
    live: LiveServer,
    alice: httpx.Client,
    ctx: dict[str, Any],
    make_key: Callable[..., str],
    make_context: Callable[..., dict[str, Any]],
) -> None:
    cid = ctx["id"]
    inside, _ = create(alice, "Inside the team.", scope={**_scope("p1")})
    outside, _ = create(alice, "Outside the team.", scope={**_scope("p2")})
    writer = make_key(cid, ["memory_read", "memory_write", "memory_review"], subject="wendy")
    narrow = make_key(cid, ["grant:manage"], subject="nora", scope="project/p1")
    url = f"/api/v1/{cid}/erasures"
    with live.client(writer) as w:
        refused = w.post(url, json={"recordIds": [inside]})
        assert refused.status_code == 403 and error_code(refused) == "missing_grant"
    with live.client(narrow) as n:
        for body in (
            {"recordIds": [outside]},
            {"recordIds": [inside, outside]},
            {"scopePrefix": "project/p2"},
            {"scopePrefix": "project"},
            {"subject": "alice"},
            {"speaker": "alice"},
        ):
            resp = n.post(url, json=body)
            assert resp.status_code == 403, (body, resp.text)
        own = n.post(url, json={"recordIds": [inside]})
        assert own.status_code == 202, own.text
        assert wait_erasure(n, cid, own.json()["erasureId"])["status"] == "done"
        theirs = alice.post(url, json={"scopePrefix": "project/p2"}).json()["erasureId"]
        assert n.get(f"{url}/{theirs}").status_code == 403
        assert n.get(f"{url}/{ZERO}").status_code == 403
    assert alice.post(url, json={"recordIds": [ZERO]}).status_code == 404
    assert alice.get(f"{url}/{ZERO}").status_code == 404
    other = make_context("elsewhere", subject="mallory")
    with live.client(other["key"]) as m:
        assert m.get(f"/api/v1/{other['id']}/erasures/{theirs}").status_code == 404
        assert m.get(f"{url}/{theirs}").status_code == 403  # not their Context at all
    bad = alice.post(url, json={"subject": "alice", "reason": "asked by email"})
    assert bad.status_code == 400


def _scope(project: str) -> dict[str, Any]:
    return {"project_id": project, "mission_id": None, "agent_id": None, "visibility": "shared"}


def test_a_document_erasure_removes_its_original_text_and_name(
    alice: httpx.Client, ctx: dict[str, Any], settings: Settings, db_url: str
) -> None:
    cid, mark = ctx["id"], f"zq7marker{uuid.uuid4().hex}"
    upload = alice.post(
        f"/api/v1/{cid}/documents",
        files={"file": (f"{mark}.txt", f"Notes on {mark}.".encode(), "text/plain")},
    )
    assert upload.status_code == 202, upload.text
    doc = upload.json()["id"]
    deadline = time.monotonic() + 60
    while alice.get(f"/api/v1/{cid}/documents/{doc}").json()["status"] != "processed":
        assert time.monotonic() < deadline, "document not processed"
        time.sleep(0.2)
    started = alice.post(f"/api/v1/{cid}/erasures", json={"documentId": doc})
    assert started.status_code == 202, started.text
    done = wait_erasure(alice, cid, started.json()["erasureId"])
    assert done["counts"]["documents"] == 1 and done["counts"]["chunks"] >= 1
    shown = alice.get(f"/api/v1/{cid}/documents/{doc}").json()
    assert shown["status"] == "erased" and mark not in json.dumps(shown)
    assert mark.encode() not in database_dump(db_url)
    assert not any(
        mark.encode() in p.read_bytes() for p in Path(settings.data_dir).rglob("*") if p.is_file()
    )
    missing = alice.post(f"/api/v1/{cid}/erasures", json={"documentId": ZERO})
    assert missing.status_code == 404 and error_code(missing) == "document_not_found"
