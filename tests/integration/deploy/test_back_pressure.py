"""Back-pressure on a live server: past the connection budget, the process budget or a
Context's concurrency budget, a request is answered at once with 503 or 429 and
Retry-After instead of waiting in a queue without end. A request is held in flight by a
table lock taken from the test's own connection, so each state is reached on purpose."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import psycopg
import pytest

from tests.support.live import LiveServer


@contextmanager
def locked(db_url: str, table: str) -> Iterator[None]:
    """Hold an ACCESS EXCLUSIVE lock on a table: every statement that reads it waits."""
    with psycopg.connect(db_url) as conn, conn.transaction():
        conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        yield


def waiting_for(db_url: str, n: int, timeout: float = 10.0) -> None:
    """Until n backends wait on a lock (the held requests have reached the database)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(db_url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone()
            if row and row[0] >= n:
                return
            time.sleep(0.02)
    raise AssertionError(f"{n} requests never reached the database lock")


def timed(send: Callable[[], httpx.Response]) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    resp = send()
    return resp, time.monotonic() - started


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(4) as executor:
        yield executor


def query(client: httpx.Client, cid: str) -> httpx.Response:
    return client.get(f"/api/v1/{cid}/query", params={"query": "anything"})


def test_with_every_connection_in_use_a_request_gets_503_and_retry_after_quickly(
    live_with: Callable[..., LiveServer], db_url: str, pool: ThreadPoolExecutor
) -> None:
    live = live_with(pool_max_size=1, pool_timeout_s=0.5)
    with live.client("test-admin-token-0123456789") as admin:
        cid = admin.post("/api/v1/contexts", json={"name": "busy"}).json()["id"]
        key = admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": "a", "grants": ["memory_read"]}
        ).json()["key"]
    with live.client(key) as first, live.client(key) as second:
        with locked(db_url, "api_key"):
            held: Future[httpx.Response] = pool.submit(query, first, cid)
            waiting_for(db_url, 1)  # the one pooled connection waits in authentication
            refused, took = timed(lambda: query(second, cid))
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "database_busy"
        assert refused.headers["retry-after"] == "1"
        assert took < 5.0  # the pool timeout (0.5 s), not the held lock (held until released)
        assert held.result(timeout=30).status_code == 200  # the held request still finishes


def test_a_statement_past_the_statement_timeout_is_503_not_a_hang(
    live_with: Callable[..., LiveServer], db_url: str, make_context: Callable[..., Any]
) -> None:
    ctx = make_context()
    live = live_with(statement_timeout_s=0.3)
    with live.client(ctx["key"]) as client, locked(db_url, "memory_record"):
        resp, took = timed(lambda: query(client, ctx["id"]))
    assert resp.status_code == 503, resp.text
    assert resp.json()["error"]["code"] == "statement_timeout"
    assert resp.headers["retry-after"] == "1" and took < 5.0


def test_a_context_over_its_concurrency_budget_gets_429_while_another_is_served(
    live_with: Callable[..., LiveServer],
    db_url: str,
    make_context: Callable[..., Any],
    pool: ThreadPoolExecutor,
) -> None:
    busy, calm = make_context("busy"), make_context("calm")
    live = live_with(context_max_in_flight=1)
    with live.client(busy["key"]) as first, live.client(busy["key"]) as second:
        with live.client(calm["key"]) as other, locked(db_url, "memory_record"):
            held = pool.submit(query, first, busy["id"])
            waiting_for(db_url, 1)  # authenticated, counted, waiting on the records
            refused, took = timed(lambda: query(second, busy["id"]))
            served = other.get(f"/api/v1/contexts/{calm['id']}")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "context_busy"
        assert refused.headers["retry-after"] == "1" and took < 5.0
        assert served.status_code == 200, served.text
        assert held.result(timeout=30).status_code == 200
        assert query(second, busy["id"]).status_code == 200  # the budget is given back


def test_a_process_at_its_request_budget_sheds_with_503_but_health_still_answers(
    live_with: Callable[..., LiveServer],
    db_url: str,
    make_context: Callable[..., Any],
    pool: ThreadPoolExecutor,
) -> None:
    ctx = make_context()
    live = live_with(max_in_flight=1)
    with live.client(ctx["key"]) as first, live.client(ctx["key"]) as second:
        with locked(db_url, "memory_record"):
            held = pool.submit(query, first, ctx["id"])
            waiting_for(db_url, 1)
            refused, took = timed(lambda: query(second, ctx["id"]))
            health = second.get("/health")
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "overloaded"
        assert refused.headers["retry-after"] == "1" and took < 5.0
        assert health.json()["database"]["status"] == "ok"  # answered (degraded: no worker)
        assert held.result(timeout=30).status_code == 200


def test_an_mcp_tool_call_counts_against_its_context_budget_too(
    live_with: Callable[..., LiveServer],
    db_url: str,
    make_context: Callable[..., Any],
    pool: ThreadPoolExecutor,
) -> None:
    from tests.integration.mcp.conftest import http_session
    from tests.integration.mcp.helpers import error, ok

    ctx = make_context()
    live = live_with(context_max_in_flight=1)

    async def recall() -> Any:
        async with http_session(live.url, ctx["key"]) as client:
            return await client.call_tool("recall", {"query": "anything"})

    with live.client(ctx["key"]) as first:
        with locked(db_url, "memory_record"):
            held = pool.submit(query, first, ctx["id"])
            waiting_for(db_url, 1)
            refused = error(asyncio.run(recall()))
        assert refused["status"] == 429 and refused["code"] == "context_busy"
        assert refused["retry_after_s"] == 1
        assert held.result(timeout=30).status_code == 200
    assert ok(asyncio.run(recall()))  # the budget is given back after each call


def test_an_mcp_call_past_the_statement_timeout_is_503_not_500(
    live_with: Callable[..., LiveServer], db_url: str, make_context: Callable[..., Any]
) -> None:
    from tests.integration.mcp.conftest import http_session
    from tests.integration.mcp.helpers import error

    ctx = make_context()
    live = live_with(statement_timeout_s=0.3)

    async def recall() -> Any:
        async with http_session(live.url, ctx["key"]) as client:
            return await client.call_tool("recall", {"query": "anything"})

    with locked(db_url, "memory_record"):
        refused = error(asyncio.run(recall()))
    assert refused["status"] == 503 and refused["code"] == "statement_timeout"
    assert refused["retry_after_s"] == 1


@contextmanager
def lock_table_full(db_url: str) -> Iterator[int]:
    """Fill PostgreSQL's shared lock table to its last slot with advisory locks held by the
    test's own transaction (a batch that does not fit is undone by its savepoint); yield
    how many were taken. Released when the block ends."""
    with psycopg.connect(db_url) as conn, conn.transaction():
        taken = 0
        for batch in (1000, 100, 10, 1):
            while True:
                try:
                    with conn.transaction():
                        conn.execute(
                            "SELECT count(pg_advisory_xact_lock(k))"
                            " FROM generate_series(%s::bigint, %s::bigint) AS k",
                            (taken, taken + batch - 1),
                        )
                    taken += batch
                except psycopg.errors.OutOfMemory:
                    break
        yield taken


def test_a_full_lock_table_is_503_with_retry_after_and_writes_nothing(
    live: LiveServer, db_url: str, make_context: Callable[..., Any]
) -> None:
    # Every statement on memory_record locks all its indexes, one per indexed Context:
    # enough of them and enough concurrent transactions fill the lock table, and the next
    # transaction fails with "out of shared memory". That is load, not a fault: come back.
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        with lock_table_full(db_url) as taken:
            assert taken > 1000
            resp = client.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I live in Lyon."})
        assert resp.status_code == 503, resp.text
        assert resp.json()["error"]["code"] == "database_busy"
        assert resp.headers["retry-after"] == "1"
        with psycopg.connect(db_url) as conn:
            assert conn.execute("SELECT count(*) FROM turn").fetchone() == (0,)
        again = client.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I live in Lyon."})
        assert again.status_code == 201, again.text
