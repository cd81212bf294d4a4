"""Document upload → worker → memory, through real HTTP and a real worker."""

from __future__ import annotations

import io
import os
import signal
import time
from pathlib import Path

import httpx
import psycopg

from tests.integration.documents.conftest import wait_for
from tests.support.hostile_documents import docx_bomb
from tests.support.scripted_model import Reply
from tests.unit.documents.test_formats_and_parsing import make_docx, make_pdf

ABOUT_ALICE = "My name is Alice Chen. I work at Acme. I live in Berlin.\n\nI love jazz."


def _upload(client: httpx.Client, cid: str, name: str, data: bytes, mime: str, **form):
    return client.post(
        f"/api/v1/{cid}/documents", files={"file": (name, io.BytesIO(data), mime)}, data=form
    )


def test_a_text_document_is_processed_into_searchable_memory(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "about.txt", ABOUT_ALICE.encode(), "text/plain")
        assert resp.status_code == 202, resp.text
        assert resp.json()["status"] == "pending"
        done = wait_for(client, ctx["id"], resp.json()["id"])
        assert done["status"] == "processed" and done["chunks"] >= 1
        hits = client.post(f"/api/v1/{ctx['id']}/query", json={"query": "jazz"}).json()
    assert hits["hits"], hits


def test_pdf_and_docx_uploads_are_parsed(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        pdf = _upload(client, ctx["id"], "a.pdf", make_pdf("I love tango."), "application/pdf")
        docx = _upload(client, ctx["id"], "b.docx", make_docx(["I love salsa."]), "")
        for resp in (pdf, docx):
            assert resp.status_code == 202, resp.text
            assert wait_for(client, ctx["id"], resp.json()["id"])["status"] == "processed"
        found = client.post(f"/api/v1/{ctx['id']}/query", json={"query": "salsa"}).json()
    assert found["hits"]


def test_an_unsupported_type_is_415_and_nothing_is_stored(live, make_context, db_url) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "x.png", b"\x89PNG\r\n\x1a\n\x00\x00", "image/png")
    assert resp.status_code == 415
    assert resp.json()["error"]["code"] == "unsupported_media_type"
    with psycopg.connect(db_url) as conn:
        assert conn.execute("SELECT count(*) FROM document").fetchone() == (0,)


def test_an_upload_over_25_mib_is_413(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "big.txt", b"a" * (25 * 1024 * 1024 + 1), "text/plain")
    assert resp.status_code == 413


def test_an_empty_upload_is_400(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        assert _upload(client, ctx["id"], "e.txt", b"", "text/plain").status_code == 400


def test_a_damaged_pdf_fails_with_parse_error_and_keeps_its_original(
    live, make_context, tmp_path: Path
) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "d.pdf", b"%PDF-1.4\nnot really", "application/pdf")
        done = wait_for(client, ctx["id"], resp.json()["id"])
    assert done["status"] == "failed" and done["failureCode"] == "parse_error"
    originals = list(live.services.settings.files_dir.rglob(resp.json()["id"]))
    assert len(originals) == 1


def test_the_original_is_removed_once_processed(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "a.txt", ABOUT_ALICE.encode(), "text/plain")
        wait_for(client, ctx["id"], resp.json()["id"])
    assert not list(live.services.settings.files_dir.rglob(resp.json()["id"]))


def test_a_judged_card_number_fails_the_document_with_its_codes(live, make_context, admin) -> None:
    ctx = make_context()
    admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"judge": {"enabled": True}})
    text = b"Pay with 4111 1111 1111 1111 please."
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "card.txt", text, "text/plain")
        done = wait_for(client, ctx["id"], resp.json()["id"])
    assert done["status"] == "failed"
    assert done["failureCode"] == "judge_fail" and "payment_card" in done["failureReasons"]


def test_a_denied_document_keeps_no_trace_but_its_failed_status(
    live, make_context, admin, scripted, db_url
) -> None:
    ctx = make_context()
    admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"judge": {"enabled": True}})
    scripted.respond_with("judge", Reply.json({"verdict": "deny", "reasons": ["policy"]}))
    marker = "zebra-quartz-document-marker"
    filename = "quokka-filename-marker.txt"
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], filename, f"Notes: {marker}".encode(), "text/plain")
        done = wait_for(client, ctx["id"], resp.json()["id"])
    assert done["status"] == "failed" and done["failureCode"] == "request_denied"
    assert done["failureReasons"] == [] and "quokka" not in str(done)
    assert not list(live.services.settings.files_dir.rglob(resp.json()["id"]))
    with psycopg.connect(db_url) as conn:
        for table in ("document", "chunk", "memory_record", "judgement", "audit_event"):
            dump = str(conn.execute(f"SELECT * FROM {table}").fetchall())
            assert marker not in dump and "quokka" not in dump, table
        actions = [r[0] for r in conn.execute("SELECT action FROM audit_event")]
        naming = conn.execute(
            "SELECT action FROM audit_event WHERE target_id = %s", (resp.json()["id"],)
        ).fetchall()
    assert not [a for a in actions if a.startswith("judge")]
    assert naming == []  # not even the upload's own event


def test_a_row_gate_failure_marks_a_document_judge_unavailable(
    live, make_context, admin, scripted, db_url
) -> None:
    ctx = make_context()
    admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"judge": {"enabled": True}})
    scripted.respond_with("judge", Reply.json({"verdict": "pass", "reasons": []}))
    scripted.respond_with("row_judge", Reply.error(500))
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "a.txt", ABOUT_ALICE.encode(), "text/plain")
        done = wait_for(client, ctx["id"], resp.json()["id"])
    assert done["status"] == "failed" and done["failureCode"] == "judge_unavailable"
    with psycopg.connect(db_url) as conn:
        jobs = conn.execute(
            "SELECT status, attempts FROM procrastinate_jobs WHERE task_name LIKE '%document%'"
        ).fetchall()
    assert jobs and all(status == "succeeded" for status, _ in jobs)  # no retry storm


def test_deleting_a_document_retires_its_memories(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "a.txt", ABOUT_ALICE.encode(), "text/plain")
        doc_id = resp.json()["id"]
        wait_for(client, ctx["id"], doc_id)
        deleted = client.delete(f"/api/v1/{ctx['id']}/documents/{doc_id}")
        assert deleted.status_code == 200
        assert client.get(f"/api/v1/{ctx['id']}/documents/{doc_id}").status_code == 404
        hits = client.post(f"/api/v1/{ctx['id']}/query", json={"query": "jazz"}).json()
    assert hits["hits"] == []


def test_a_private_document_is_invisible_to_another_subject(live, make_context, make_key) -> None:
    ctx = make_context()
    other = make_key(ctx["id"], ["memory_read", "memory_write"], subject="bob")
    with live.client(ctx["key"]) as client:
        resp = _upload(
            client, ctx["id"], "p.txt", ABOUT_ALICE.encode(), "text/plain", visibility="private"
        )
    with live.client(other) as client:
        assert client.get(f"/api/v1/{ctx['id']}/documents/{resp.json()['id']}").status_code == 404
        listed = client.get(f"/api/v1/{ctx['id']}/documents").json()["documents"]
    assert listed == []


def test_a_key_narrowed_to_another_scope_cannot_upload_there(live, make_context, make_key) -> None:
    ctx = make_context()
    narrow = make_key(ctx["id"], ["memory_write"], subject="n", scope="org/acme")
    with live.client(narrow) as client:
        denied = _upload(client, ctx["id"], "a.txt", b"hello", "text/plain", scope="org/other")
        allowed = _upload(client, ctx["id"], "a.txt", b"hello", "text/plain", scope="org/acme/x")
    assert denied.status_code == 403 and allowed.status_code == 202


def test_a_docx_bomb_fails_as_too_large_and_health_stays_quick(live, make_context) -> None:
    bomb = docx_bomb(empty_paragraphs=10_000_000 // 6)  # 10 MB of XML in a ~16 KB upload
    assert len(bomb) < 64 * 1024
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "bomb.docx", bomb, "")
        assert resp.status_code == 202, resp.text
        slowest = 0.0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            started = time.monotonic()
            assert client.get("/health").status_code == 200
            slowest = max(slowest, time.monotonic() - started)
            status = client.get(f"/api/v1/{ctx['id']}/documents/{resp.json()['id']}").json()
            if status["status"] in ("processed", "failed"):
                break
            time.sleep(0.05)
    assert status["status"] == "failed" and status["failureCode"] == "document_too_large"
    assert slowest < 1.0


def test_a_docx_with_too_many_entries_fails_as_too_large(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = _upload(client, ctx["id"], "many.docx", docx_bomb(0, extra_entries=3000), "")
        done = wait_for(client, ctx["id"], resp.json()["id"])
    assert done["status"] == "failed" and done["failureCode"] == "document_too_large"


def test_a_parser_process_that_dies_fails_its_document_and_the_next_one_is_processed(
    live, make_context
) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        slow = _upload(client, ctx["id"], "slow.docx", docx_bomb(empty_paragraphs=300_000), "")
        assert slow.status_code == 202, slow.text
        deadline = time.monotonic() + 60
        while not live.services.parsers.busy_pids():
            assert time.monotonic() < deadline, "the document never reached a parser"
            time.sleep(0.01)
        os.kill(live.services.parsers.busy_pids()[0], signal.SIGKILL)  # the OOM killer's way
        failed = wait_for(client, ctx["id"], slow.json()["id"])
        after = _upload(client, ctx["id"], "a.txt", ABOUT_ALICE.encode(), "text/plain")
        done = wait_for(client, ctx["id"], after.json()["id"])
    assert failed["status"] == "failed" and failed["failureCode"] == "parse_failed"
    assert done["status"] == "processed" and done["chunks"] >= 1
