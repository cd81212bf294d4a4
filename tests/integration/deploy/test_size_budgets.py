"""A Context's byte budget on a live server: the request bodies one Context has in flight
in a process are held to MEMWARDEN_CONTEXT_MAX_BYTES_IN_FLIGHT. A body is held in flight
by a raw connection that declares its length and sends only part of it, so the server
has counted it and waits for the rest; each state is reached on purpose."""

from __future__ import annotations

import json
import re
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from tests.support.dashboard import csrf_of, sign_in
from tests.support.live import LiveServer

BUDGET = 4096
HELD = 1000
JSON = {"content-type": "application/json"}


def facts_body(text: str, size: int) -> bytes:
    """A valid /facts body of exactly `size` bytes (the text padded with spaces)."""
    base = json.dumps({"text": text, "infer": "none"})
    body = json.dumps({"text": text + " " * (size - len(base)), "infer": "none"}).encode()
    assert len(body) == size
    return body


def held_bytes(live: LiveServer, cid: str) -> int:
    return live.services.admission.bytes_per_context.get(uuid.UUID(cid), 0)


def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.01)
    raise AssertionError("the server never reached the expected state")


@contextmanager
def held_body(
    live: LiveServer, key: str, path: str, declared: int, first: bytes = b""
) -> Iterator[socket.socket]:
    """A request that declares `declared` bytes of body and sends only `first` of them;
    the connection closes when the block ends (the client going away mid-body)."""
    sock = socket.create_connection(("127.0.0.1", live.port), timeout=30)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {declared}\r\n\r\n"
    )
    try:
        sock.sendall(head.encode() + first)
        yield sock
    finally:
        sock.close()


def finish(sock: socket.socket, rest: bytes) -> int:
    """Send the rest of a held body; the status of the answer."""
    sock.sendall(rest)
    answer = b""
    while b"\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the connection without an answer"
        answer += chunk
    return int(answer.split(b" ", 2)[1])


def turns(db_url: str, cid: str) -> int:
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT count(*) FROM turn WHERE context_id = %s", (cid,)).fetchone()
    return row[0] if row else 0


def test_bodies_up_to_a_contexts_byte_budget_are_served_and_one_byte_more_is_429_unread(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any], db_url: str
) -> None:
    busy, calm = make_context("busy"), make_context("calm")
    live = live_with(context_max_bytes_in_flight=BUDGET)
    facts = f"/api/v1/{busy['id']}/facts"
    with held_body(live, busy["key"], facts, HELD):
        until(lambda: held_bytes(live, busy["id"]) == HELD)
        with live.client(busy["key"]) as client:
            at_budget = client.post(
                facts, content=facts_body("At the edge.", BUDGET - HELD), headers=JSON
            )
            # Not JSON: had the route read it, the answer would be 400 malformed_json.
            started = time.monotonic()
            over = client.post(facts, content=b"{" * (BUDGET - HELD + 1), headers=JSON)
            took = time.monotonic() - started
        with live.client(calm["key"]) as other:
            calm_facts = f"/api/v1/{calm['id']}/facts"
            served = other.post(calm_facts, content=facts_body("Calm.", BUDGET), headers=JSON)
    assert at_budget.status_code == 201, at_budget.text
    assert over.status_code == 429, over.text
    assert over.json()["error"]["code"] == "context_bytes_busy"
    assert over.json()["error"]["limit"] == BUDGET
    assert over.headers["retry-after"] == "1" and took < 5.0
    assert served.status_code == 201, served.text  # another Context has its own budget
    assert turns(db_url, busy["id"]) == 1  # the write at the edge; the refusal left nothing


def test_a_body_alone_larger_than_the_budget_is_served(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(context_max_bytes_in_flight=HELD)
    with live.client(ctx["key"]) as client:
        resp = client.post(
            f"/api/v1/{ctx['id']}/facts", content=facts_body("Large.", 3 * HELD), headers=JSON
        )
    assert resp.status_code == 201, resp.text


def test_the_byte_budget_is_given_back_when_a_request_fails_and_when_its_client_goes_away(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(context_max_bytes_in_flight=BUDGET)
    facts = f"/api/v1/{ctx['id']}/facts"
    with held_body(live, ctx["key"], facts, HELD, b"{not json") as sock:
        until(lambda: held_bytes(live, ctx["id"]) == HELD)
        assert finish(sock, b"x" * (HELD - 9)) == 400  # the request failed
    until(lambda: held_bytes(live, ctx["id"]) == 0)
    with held_body(live, ctx["key"], facts, HELD, b'{"te'):
        until(lambda: held_bytes(live, ctx["id"]) == HELD)
    until(lambda: held_bytes(live, ctx["id"]) == 0)  # gone mid-body
    # Nothing was left counted: a held body and the rest of the budget are served together.
    with held_body(live, ctx["key"], facts, HELD), live.client(ctx["key"]) as client:
        until(lambda: held_bytes(live, ctx["id"]) == HELD)
        rest = client.post(facts, content=facts_body("The rest.", BUDGET - HELD), headers=JSON)
    assert rest.status_code == 201, rest.text


def test_a_chunked_body_is_counted_by_the_bytes_read(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(context_max_bytes_in_flight=BUDGET)
    facts = f"/api/v1/{ctx['id']}/facts"

    def chunked(body: bytes) -> Iterator[bytes]:  # no Content-Length: sent chunked
        yield body[:100]
        yield body[100:]

    with held_body(live, ctx["key"], facts, HELD), live.client(ctx["key"]) as client:
        until(lambda: held_bytes(live, ctx["id"]) == HELD)
        fits = client.post(
            facts, content=chunked(facts_body("Chunked.", BUDGET - HELD)), headers=JSON
        )
        over = client.post(facts, content=chunked(b"{" * (BUDGET - HELD + 1)), headers=JSON)
    assert "content-length" not in fits.request.headers
    assert fits.status_code == 201, fits.text
    assert over.status_code == 429 and over.json()["error"]["code"] == "context_bytes_busy"


def test_an_mcp_request_counts_against_the_byte_budget(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(context_max_bytes_in_flight=BUDGET)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "remember", "arguments": {"text": "x" * BUDGET}},
    }
    headers = {**JSON, "accept": "application/json, text/event-stream"}
    with live.client(ctx["key"]) as client:
        with held_body(live, ctx["key"], f"/api/v1/{ctx['id']}/facts", HELD):
            until(lambda: held_bytes(live, ctx["id"]) == HELD)
            refused = client.post("/mcp", content=json.dumps(call), headers=headers)
        until(lambda: held_bytes(live, ctx["id"]) == 0)
        admitted = client.post("/mcp", content=json.dumps(call), headers=headers)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "context_bytes_busy"
    assert refused.headers["retry-after"] == "1"
    assert admitted.status_code != 429  # alone, the same call passes the budget


def test_a_dashboard_upload_past_the_byte_budget_is_a_429_page_and_stores_nothing(
    live_with: Callable[..., LiveServer], make_context: Callable[..., Any], db_url: str
) -> None:
    ctx = make_context()
    live = live_with(context_max_bytes_in_flight=BUDGET)
    with live.client() as browser:
        assert sign_in(browser, ctx["key"]).status_code == 303
        page = f"/ui/c/{ctx['id']}/documents"
        token = csrf_of(browser.get(page).text)
        form = {"csrf": token, "visibility": "shared"}
        with held_body(live, ctx["key"], f"/api/v1/{ctx['id']}/facts", HELD):
            until(lambda: held_bytes(live, ctx["id"]) == HELD)
            refused = browser.post(
                page, data=form, files={"file": ("a.txt", b"a" * BUDGET, "text/plain")}
            )
        until(lambda: held_bytes(live, ctx["id"]) == 0)
        uploaded = browser.post(
            page, data=form, files={"file": ("b.txt", b"b" * BUDGET, "text/plain")}
        )
    assert refused.status_code == 429
    assert re.search(r"context_bytes_busy", refused.text)
    assert uploaded.status_code == 303, uploaded.text
    with psycopg.connect(db_url) as conn:
        names = [r[0] for r in conn.execute("SELECT filename FROM document").fetchall()]
    assert names == ["b.txt"]
