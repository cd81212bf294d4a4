"""The Python client's core against a real server: remember and recall, memwarden's own
outcomes as typed fields (held, a judge's reason codes), errors as exceptions, retries
after Retry-After, and the async client."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import psycopg
import pytest
from memwarden_client import (
    AsyncMemwarden,
    AuthenticationError,
    ConnectionFailed,
    InvalidRequest,
    JudgeRefused,
    Memwarden,
    MemwardenAdmin,
    NotFound,
    PermissionDenied,
    RateLimited,
    RetryEvent,
    RetryPolicy,
    models,
)

from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer

CARD = "4111 1111 1111 1111"


def test_a_remembered_turn_comes_back_from_query_profile_and_state(mw: Memwarden) -> None:
    written = mw.remember(
        "I am Alice. I work at Acme. Always answer in bullet points.", scope="user/alice"
    )
    assert isinstance(written, models.FactsResponse)
    assert written.held is False and written.session_id and written.turn_id
    assert written.extraction.chunk_only is False
    found = mw.query("Where does Alice work?", scope="user/alice", limit=5)
    assert isinstance(found, models.QueryResponse)
    assert any("Acme" in str(hit.content) for hit in found.hits)
    mine = mw.profile(scope="user/alice")
    assert isinstance(mine, models.ProfileResponse) and mine.entity_ids
    standing = mw.state(scope="user/alice")
    assert any("bullet" in str(hit.content).lower() for hit in standing.instructions)


def test_a_held_write_says_it_is_held(mw: Memwarden) -> None:
    mw.config.patch({"judge": {"enabled": True, "on_warn": "hold"}})
    written = mw.remember("Write to me at alice.smith@example.com, I am Alice.")
    assert written.held is True
    (entry,) = mw.judgements.list(held=True)
    assert entry.held is True and entry.reasons == ["personal_data"]


def test_a_judge_refusal_raises_with_its_reason_codes_and_never_the_content(
    mw: Memwarden,
) -> None:
    mw.config.patch({"judge": {"enabled": True}})
    with pytest.raises(JudgeRefused) as refused:
        mw.remember(f"My card is {CARD}, remember it.")
    error = refused.value
    assert (error.status, error.code, error.reasons) == (422, "judge_refused", ["payment_card"])
    assert isinstance(error, InvalidRequest)
    assert "4111" not in str(error) and "4111" not in repr(error.body)


def test_error_answers_are_exceptions_with_status_code_message_and_field(
    live: LiveServer, mw: Memwarden, ctx: dict[str, Any], make_key: Callable[..., str]
) -> None:
    with pytest.raises(InvalidRequest) as invalid:
        mw.query("anything", limit=1000)
    assert invalid.value.status == 400 and invalid.value.field == "limit"
    assert invalid.value.message and invalid.value.request_id
    with pytest.raises(NotFound) as missing:
        mw.documents.get("00000000-0000-4000-8000-000000000000")
    assert missing.value.status == 404
    reader = make_key(ctx["id"], ["memory_read"])
    with (
        Memwarden(live.url, reader, context_id=ctx["id"]) as read_only,
        pytest.raises(PermissionDenied) as denied,
    ):
        read_only.remember("I am Bob.")
    assert denied.value.status == 403 and denied.value.code
    with (
        Memwarden(live.url, "mwk_not_a_key", context_id=ctx["id"]) as stranger,
        pytest.raises(AuthenticationError) as unknown,
    ):
        stranger.query("anything")
    assert unknown.value.status == 401 and unknown.value.code == "unauthorized"


class _Counting(httpx.HTTPTransport):
    """The real transport, counting the paths it sends (to see /whoami asked once)."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        return super().handle_request(request)


def test_a_client_without_a_context_id_learns_it_once_from_whoami(
    live: LiveServer, ctx: dict[str, Any]
) -> None:
    sent = _Counting()
    with Memwarden(live.url, ctx["key"], transport=sent) as client:
        assert client.context_id is None
        client.memory.search(query="anything")  # the contract names no Context: no whoami
        assert "/api/v1/whoami" not in sent.paths
        written = client.remember("I am Alice. I work at Acme.", scope="user/alice")
        assert client.context_id == ctx["id"]
        found = client.query("Where does Alice work?", scope="user/alice")
        assert [d.id for d in client.documents.list()] == []
        stream = [type(e).__name__ for e in client.chat_stream("hi", remember=False)]
    assert written.held is False and any("Acme" in str(h.content) for h in found.hits)
    assert stream[0] == "ChatStreamMemories" and stream[-1] == "ChatStreamDone"
    assert sent.paths.count("/api/v1/whoami") == 1
    assert sent.paths.index("/api/v1/whoami") < sent.paths.index(f"/api/v1/{ctx['id']}/facts")


def test_whoami_answers_the_keys_context_principal_and_grants(
    live: LiveServer, ctx: dict[str, Any], make_key: Callable[..., str]
) -> None:
    reader = make_key(ctx["id"], ["memory_read"], subject="bob", scope="user/bob")
    with Memwarden(live.url, reader) as client:
        me = client.whoami()
        assert client.context_id == ctx["id"]
    assert isinstance(me, models.WhoAmI)
    assert (me.context_id, me.subject, me.key_scope) == (ctx["id"], "bob", "user/bob")
    assert me.grants == {"memory_read": ["user/bob"]} and me.key_grants == ["memory_read"]


def test_without_a_context_id_a_bad_key_or_the_admin_token_fails_with_the_servers_error(
    live: LiveServer,
) -> None:
    bad_key = "mwk_" + "0" * 32 + "_nope"
    with Memwarden(live.url, bad_key) as stranger, pytest.raises(AuthenticationError) as unknown:
        stranger.remember("I am Alice.")
    assert unknown.value.status == 401
    with Memwarden(live.url, ADMIN_TOKEN) as admin_as_key, pytest.raises(InvalidRequest) as no_ctx:
        admin_as_key.query("anything")
    assert (no_ctx.value.status, no_ctx.value.code) == (400, "context_key_required")


def test_the_async_client_without_a_context_id_learns_it_for_calls_lists_and_streams(
    live: LiveServer, ctx: dict[str, Any]
) -> None:
    async def scenario() -> tuple[str | None, list[Any], list[str], models.WhoAmI]:
        async with AsyncMemwarden(live.url, ctx["key"]) as client:
            pages = [d async for d in client.documents.list()]  # an async list first
            learnt = client.context_id
            stream = client.chat_stream("hi", remember=False)
            events = [type(e).__name__ async for e in stream]
            me = await client.whoami()
            return learnt, pages, events, me

    learnt, pages, events, me = asyncio.run(scenario())
    assert learnt == ctx["id"] and pages == []
    assert events[0] == "ChatStreamMemories" and events[-1] == "ChatStreamDone"
    assert me.context_id == ctx["id"] and me.subject == "alice"


def _hold_records(db_url: str, locked: threading.Event, release: threading.Event) -> None:
    """Hold memory_record under an exclusive lock until `release` (a recall then waits)."""
    with psycopg.connect(db_url) as conn, conn.transaction():
        conn.execute("LOCK TABLE memory_record IN ACCESS EXCLUSIVE MODE")
        locked.set()
        release.wait(30)


def _waiting_on_lock(db_url: str) -> None:
    deadline = time.monotonic() + 10
    with psycopg.connect(db_url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone()
            if row and row[0] >= 1:
                return
            time.sleep(0.02)
    raise AssertionError("the held request never reached the lock")


def test_a_write_refused_with_429_is_sent_again_after_retry_after(
    live_with: Callable[..., LiveServer], db_url: str
) -> None:
    live = live_with(context_max_in_flight=1)
    with MemwardenAdmin(live.url, ADMIN_TOKEN) as admin:
        cid = admin.contexts.create("busy").id
        key = admin.keys.issue(cid, "alice", ["memory_read", "memory_write"]).key
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_records, args=(db_url, locked, release))
    holder.start()
    assert locked.wait(10)
    retries: list[RetryEvent] = []

    def on_retry(event: RetryEvent) -> None:
        retries.append(event)
        release.set()  # the held request finishes while the client waits

    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}) as raw:
        held = threading.Thread(
            target=raw.get, args=(f"/api/v1/{cid}/query",), kwargs={"params": {"query": "x"}}
        )
        held.start()
        _waiting_on_lock(db_url)  # the Context's one request slot is taken
        with Memwarden(live.url, key, context_id=cid, on_retry=on_retry) as client:
            started = time.monotonic()
            written = client.remember("I am Alice.", infer=False)
            took = time.monotonic() - started
        held.join(30)
    holder.join(30)
    assert written.turn_id
    assert [(r.status, r.code, r.wait_s, r.attempt) for r in retries] == [
        (429, "context_busy", 1.0, 1)
    ]
    assert took >= 1.0  # it waited the server's Retry-After before sending again


def _answer(status: int, retry_after: str | None = None) -> httpx.Response:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return httpx.Response(status, headers=headers, json={"error": {"code": "x", "message": "x"}})


def test_the_retry_policy_retries_writes_only_on_a_429_or_503_with_retry_after() -> None:
    policy = RetryPolicy(max_retries=3, backoff=0.5, max_retry_wait=30.0)
    assert policy.after_status(_answer(429, "1"), 0, idempotent=False) == 1.0
    assert policy.after_status(_answer(503, "2"), 2, idempotent=False) == 2.0
    assert policy.after_status(_answer(503, "2"), 3, idempotent=False) is None  # bounded
    assert policy.after_status(_answer(429, "60"), 0, idempotent=False) is None  # too long
    assert policy.after_status(_answer(429), 0, idempotent=True) is None  # a spent budget
    assert policy.after_status(_answer(502), 0, idempotent=False) is None
    assert policy.after_status(_answer(502), 1, idempotent=True) == 1.0  # backoff, doubled
    assert policy.after_status(_answer(500), 0, idempotent=True) is None
    refused = httpx.ConnectError("refused")
    broken = httpx.ReadError("reset")
    assert policy.after_error(refused, 0, idempotent=False) == 0.5  # nothing was sent
    assert policy.after_error(broken, 0, idempotent=False) is None
    assert policy.after_error(broken, 0, idempotent=True) == 0.5


def test_a_429_past_the_retries_raises_rate_limited_with_retry_after(
    live_with: Callable[..., LiveServer], db_url: str
) -> None:
    live = live_with(context_max_in_flight=1)
    with MemwardenAdmin(live.url, ADMIN_TOKEN) as admin:
        cid = admin.contexts.create("busy").id
        key = admin.keys.issue(cid, "alice", ["memory_read"]).key
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_records, args=(db_url, locked, release))
    holder.start()
    assert locked.wait(10)
    try:
        with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}) as raw:
            held = threading.Thread(
                target=raw.get, args=(f"/api/v1/{cid}/query",), kwargs={"params": {"query": "x"}}
            )
            held.start()
            _waiting_on_lock(db_url)
            with (
                Memwarden(live.url, key, context_id=cid, max_retries=0) as client,
                pytest.raises(RateLimited) as limited,
            ):
                client.query("anything")
            release.set()
            held.join(30)
    finally:
        release.set()
        holder.join(30)
    assert (limited.value.status, limited.value.code) == (429, "context_busy")
    assert limited.value.retry_after == 1.0


def test_the_async_client_remembers_and_recalls(live: LiveServer, ctx: dict[str, Any]) -> None:
    async def scenario() -> tuple[models.FactsResponse, models.QueryResponse]:
        async with AsyncMemwarden(live.url, ctx["key"], context_id=ctx["id"]) as client:
            written = await client.remember("I am Alice. I live in Lisbon.", scope="user/alice")
            found = await client.query("Where does Alice live?", scope="user/alice")
            with pytest.raises(InvalidRequest):
                await client.query("anything", limit=0)
            return written, found

    written, found = asyncio.run(scenario())
    assert written.held is False
    assert any("Lisbon" in str(hit.content) for hit in found.hits)


def test_a_server_that_cannot_be_reached_is_retried_then_raises_connection_failed() -> None:
    from tests.support.live import free_port

    retries: list[RetryEvent] = []
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    with (
        Memwarden(
            url, "mwk_x", context_id="c", max_retries=2, backoff=0.01, on_retry=retries.append
        ) as client,
        pytest.raises(ConnectionFailed) as failed,
    ):
        client.remember("I am Alice.")  # a write: retried only because nothing was sent
    assert (failed.value.status, failed.value.code) == (0, "connection_error")
    assert [(r.attempt, r.wait_s, r.status) for r in retries] == [(1, 0.01, None), (2, 0.02, None)]


def test_held_writes_are_approved_or_rejected_and_a_refusal_overridden(mw: Memwarden) -> None:
    mw.config.patch({"judge": {"enabled": True, "on_warn": "hold"}})
    kept = mw.remember("I am Alice. Mail me at alice.smith@example.com.", scope="user/alice")
    dropped = mw.remember("I am Bob. Mail me at bob.jones@example.com.", scope="user/bob")
    assert kept.held and dropped.held
    entries = {e.scope.path: e for e in mw.judgements.list(held=True, limit=1)}
    approved = mw.judgements.approve(entries["user/alice"].id)
    rejected = mw.judgements.reject(entries["user/bob"].id)
    assert approved.judgement.id == entries["user/alice"].id
    assert rejected.judgement.id == entries["user/bob"].id
    assert mw.query("alice", scope="user/alice").hits
    with pytest.raises(JudgeRefused):
        mw.remember(f"My card is {CARD}.")
    (failed,) = mw.judgements.list(verdict="fail")
    overridden = mw.judgements.override(failed.id, "pass")
    assert overridden.judgement.override is not None
    assert mw.judgements.get(failed.id).effective_verdict == "pass"
    tried = mw.judgements.dry_run("Card numbers are fine here.", limit=5)
    assert isinstance(tried, models.DryRunResult)
