"""A document whose extraction failed says so in its status and can be reprocessed: only the
failed windows, from the stored (redacted) text, row-gated and reconciled like a new write."""

from __future__ import annotations

import io

import httpx

from tests.integration.documents.conftest import wait_for
from tests.support.scripted_model import Reply

TEXT = "Marguerite keeps bees on the roof of the library.\n\nShe sells the honey in May."
MARGUERITE = {
    "entities": [{"name": "Marguerite", "entityType": "person", "memoryCategory": "identity"}],
    "attributes": [
        {"entity": "Marguerite", "key": "hobby", "value": "bees", "memoryCategory": "identity"}
    ],
    "relations": [],
    "actions": [],
    "instructions": [],
    "uncertainties": [],
    "corrections": [],
}


def _upload(client: httpx.Client, cid: str, text: str, **form: str) -> str:
    resp = client.post(
        f"/api/v1/{cid}/documents",
        files={"file": ("bees.txt", io.BytesIO(text.encode()), "text/plain")},
        data=form,
    )
    assert resp.status_code == 202, resp.text
    return resp.json()["id"]


def _scripted_extraction(admin: httpx.Client, cid: str) -> None:
    choice = {"models": {"extraction": {"provider": "openai", "model": "doc-model"}}}
    assert admin.patch(f"/api/v1/contexts/{cid}/config", json=choice).status_code == 200


def test_a_chunk_only_document_says_so_and_is_reprocessed_once(
    live, make_context, admin, scripted, db_url
) -> None:
    ctx = make_context()
    _scripted_extraction(admin, ctx["id"])
    scripted.script("extraction", Reply.text("not JSON"), Reply.json(MARGUERITE))
    with live.client(ctx["key"]) as client:
        doc = _upload(client, ctx["id"], TEXT)
        done = wait_for(client, ctx["id"], doc)
        assert done["status"] == "processed"
        assert done["extraction"] == {"windows": 1, "windowsFailed": 1, "chunkOnly": True}
        listed = client.get(f"/api/v1/{ctx['id']}/documents").json()["documents"]
        assert listed[0]["extraction"]["chunkOnly"] is True
        resp = client.post(f"/api/v1/{ctx['id']}/documents/{doc}/reprocess")
        assert resp.status_code == 200, resp.text
        body = resp.json()
        assert body["documentId"] == doc and body["windowsRetried"] == 1
        assert body["windowsFailed"] == 0 and body["extraction"]["chunkOnly"] is False
        assert [e["name"] for e in body["extraction"]["entities"]] == ["Marguerite"]
        assert "honey in May" in scripted.requests_for("extraction")[1].user
        after = client.get(f"/api/v1/{ctx['id']}/documents/{doc}").json()
        assert after["extraction"] == {"windows": 1, "windowsFailed": 0, "chunkOnly": False}
        twice = client.post(f"/api/v1/{ctx['id']}/documents/{doc}/reprocess")
        assert twice.status_code == 409
        assert twice.json()["error"]["code"] == "nothing_to_reprocess"
        profile = client.get(f"/api/v1/{ctx['id']}/profile", params={"entity": "Marguerite"})
        usage = client.get(f"/api/v1/{ctx['id']}/usage").json()["extraction"]
    # the upload's one failed window, then the reprocess's one retried window
    assert usage["by_source"]["document"]["windows_run"] == 2
    assert usage["by_source"]["document"]["windows_failed"] == 1
    assert usage["dropped_bytes"] == 0
    assert profile.status_code == 200, profile.text
    assert len(scripted.requests_for("extraction")) == 2


def test_a_processed_document_reports_no_failure(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        doc = _upload(client, ctx["id"], TEXT)
        done = wait_for(client, ctx["id"], doc)
        assert done["extraction"] == {"windows": 1, "windowsFailed": 0, "chunkOnly": False}
        resp = client.post(f"/api/v1/{ctx['id']}/documents/{doc}/reprocess")
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "nothing_to_reprocess"


def test_reprocessing_a_document_needs_write_and_never_reaches_a_private_one(
    live, make_context, make_key, admin, scripted
) -> None:
    ctx = make_context()
    _scripted_extraction(admin, ctx["id"])
    scripted.respond_with("extraction", Reply.text("not JSON"))
    reader = make_key(ctx["id"], ["memory_read"], subject="rita")
    bob = make_key(ctx["id"], ["memory_read", "memory_write"], subject="bob")
    with live.client(ctx["key"]) as client:
        shared = _upload(client, ctx["id"], TEXT)
        private = _upload(client, ctx["id"], TEXT, visibility="private")
        wait_for(client, ctx["id"], shared)
        wait_for(client, ctx["id"], private)
    calls = len(scripted.requests_for("extraction"))
    with live.client(reader) as client:
        resp = client.post(f"/api/v1/{ctx['id']}/documents/{shared}/reprocess")
        assert resp.status_code == 403
    with live.client(bob) as client:
        resp = client.post(f"/api/v1/{ctx['id']}/documents/{private}/reprocess")
        assert resp.status_code == 404
    assert len(scripted.requests_for("extraction")) == calls
