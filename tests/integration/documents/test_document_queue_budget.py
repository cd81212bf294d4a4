"""A Context's document queue: the originals of its documents that no worker has finished
hold their size against MEMWARDEN_CONTEXT_MAX_PENDING_DOCUMENT_BYTES; an upload past it
is 429 `document_queue_full` with Retry-After and stores nothing. Without a worker the
uploads stay pending, so each state is reached on purpose."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg

from tests.integration.deploy.test_back_pressure import waiting_for
from tests.integration.documents.conftest import wait_for
from tests.support.live import LiveServer

BUDGET = 1000


def upload(client: httpx.Client, cid: str, size: int, name: str = "a.txt") -> httpx.Response:
    data = (b"Alice works at Acme. " * (size // 21 + 1))[:size]
    return client.post(
        f"/api/v1/{cid}/documents", files={"file": (name, io.BytesIO(data), "text/plain")}
    )


def stored(live: LiveServer, db_url: str, cid: str) -> tuple[int, int]:
    """(document rows, original files) of the Context."""
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT count(*) FROM document WHERE context_id = %s", (cid,))
        rows = row.fetchone()
    files = [p for p in live.services.settings.files_dir.rglob("*") if p.is_file()]
    return (rows[0] if rows else 0), len(files)


def test_uploads_up_to_the_queue_budget_are_accepted_and_one_byte_more_is_429_with_no_trace(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any], db_url: str
) -> None:
    ctx = make_context()
    live = live_with(context_max_pending_document_bytes=BUDGET)
    with live.client(ctx["key"]) as client:
        first = upload(client, ctx["id"], 600)
        at_budget = upload(client, ctx["id"], BUDGET - 600)
        over = upload(client, ctx["id"], 1)
    assert first.status_code == 202 and at_budget.status_code == 202, at_budget.text
    assert over.status_code == 429, over.text
    error = over.json()["error"]
    assert error["code"] == "document_queue_full"
    assert error["limit"] == BUDGET and error["pending_bytes"] == BUDGET
    assert over.headers["retry-after"] == "30"
    assert stored(live, db_url, ctx["id"]) == (2, 2)  # no row, no file for the refusal


def test_a_document_alone_larger_than_the_queue_budget_is_accepted(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(context_max_pending_document_bytes=BUDGET)
    with live.client(ctx["key"]) as client:
        alone = upload(client, ctx["id"], 3 * BUDGET)
        next_one = upload(client, ctx["id"], 1)
    assert alone.status_code == 202, alone.text
    assert next_one.status_code == 429


def test_processed_documents_leave_the_queue(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(run_worker=True, context_max_pending_document_bytes=BUDGET)
    with live.client(ctx["key"]) as client:
        first = upload(client, ctx["id"], 600)
        assert wait_for(client, ctx["id"], first.json()["id"])["status"] == "processed"
        # Had the processed one stayed counted, 600 + 600 would be past the budget.
        again = upload(client, ctx["id"], 600)
        assert again.status_code == 202, again.text


def test_an_upload_reads_the_queue_only_after_a_concurrent_upload_commits(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any], db_url: str
) -> None:
    ctx = make_context()
    live = live_with(context_max_pending_document_bytes=BUDGET)
    with live.client(ctx["key"]) as client, ThreadPoolExecutor(1) as pool:
        assert upload(client, ctx["id"], 600).status_code == 202
        # Another upload, in its transaction: it holds the queue lock and has grown the
        # queue to 900 bytes, not yet committed.
        with psycopg.connect(db_url) as conn, conn.transaction():
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('document_queue:' || %s, 0))",
                (ctx["id"],),
            )
            conn.execute("UPDATE document SET size_bytes = 900 WHERE context_id = %s", (ctx["id"],))
            late = pool.submit(upload, client, ctx["id"], 200, "late.txt")
            waiting_for(db_url, 1)  # the upload waits for the lock, its sum not yet read
            time.sleep(0.1)
        resp = late.result(timeout=30)
    assert resp.status_code == 429, resp.text  # 900 + 200: it saw the committed queue
    assert resp.json()["error"]["pending_bytes"] == 900
