"""The rest of the client's verbs against a real server: documents (upload with progress,
wait), chat streaming, pagination across pages, the memory contract and review verbs,
hygiene, passes, the change feed, usage, audit, keys, and the admin clients."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from memwarden_client import (
    AsyncMemwarden,
    AsyncMemwardenAdmin,
    Conflict,
    ConnectionFailed,
    Memwarden,
    MemwardenAdmin,
    NotFound,
    RetryEvent,
    Unavailable,
    models,
)

from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

ABOUT = "My name is Alice Chen. I work at Acme. I live in Berlin.\n\nI love jazz.\n\n"


@pytest.fixture
def working(live_with: Callable[..., LiveServer]) -> LiveServer:
    """A server with an in-process worker, for documents."""
    return live_with(run_worker=True)


@pytest.fixture
def worked_ctx(working: LiveServer) -> dict[str, Any]:
    """A Context on the worker server and its owner's key: {"id", "key"}."""
    with MemwardenAdmin(working.url, ADMIN_TOKEN) as admin:
        created = admin.contexts.create("docs", owner_subject="alice")
    assert created.owner_key is not None
    return {"id": created.id, "key": created.owner_key.key}


@pytest.fixture
def worked(working: LiveServer, worked_ctx: dict[str, Any]) -> Iterator[Memwarden]:
    with Memwarden(working.url, worked_ctx["key"], context_id=worked_ctx["id"]) as client:
        yield client


def test_a_document_upload_reports_progress_and_wait_returns_it_processed_sync_and_async(
    working: LiveServer, worked_ctx: dict[str, Any], worked: Memwarden, tmp_path: Path
) -> None:
    data = (ABOUT * 1200).encode()  # past one 64 KiB piece of the body
    seen: list[tuple[int, int]] = []
    doc = worked.documents.upload(
        data, filename="about.txt", progress=lambda sent, total: seen.append((sent, total))
    )
    assert isinstance(doc, models.DocumentResponse) and doc.status == "pending"
    assert doc.filename == "about.txt" and doc.size_bytes == len(data)
    total = seen[-1][1]
    assert total > len(data) and seen[0] == (0, total) and seen[-1] == (total, total)
    assert len(seen) >= 3 and [s for s, _ in seen] == sorted(s for s, _ in seen)
    done = worked.documents.wait(doc.id, timeout=90, poll=0.2)
    assert done.status == "processed" and (done.chunks or 0) >= 1
    path = tmp_path / "notes.md"
    path.write_text("I love tango.", encoding="utf-8")
    named = worked.documents.upload(path, scope="user/alice", visibility="private")
    assert (named.filename, named.visibility) == ("notes.md", "private")
    assert worked.documents.wait(named.id, timeout=90, poll=0.2).status == "processed"
    assert [d.id for d in worked.documents.list(limit=1)] == [named.id, doc.id]
    assert worked.documents.delete(doc.id).deleted is True
    with pytest.raises(NotFound):
        worked.documents.get(doc.id)

    async def the_same_async() -> tuple[list[tuple[int, int]], str, list[str], list[str]]:
        seen: list[tuple[int, int]] = []
        async with AsyncMemwarden(
            working.url, worked_ctx["key"], context_id=worked_ctx["id"]
        ) as client:
            uploaded = await client.documents.upload(
                data, filename="again.txt", progress=lambda s, t: seen.append((s, t))
            )
            done = await client.documents.wait(uploaded.id, timeout=90, poll=0.2)
            listed = [d.id async for d in client.documents.list(limit=1)]
            kinds = [c.entry_type async for c in client.changes(limit=5)]
        return seen, done.status, listed, kinds

    seen, status, listed, kinds = asyncio.run(the_same_async())
    assert len(seen) >= 3 and seen[0][0] == 0 and seen[-1][0] == seen[-1][1]
    assert status == "processed" and len(listed) == 2  # again.txt and notes.md
    assert kinds and set(kinds) <= {"created", "updated", "superseded", "deleted", "reviewed"}


@pytest.fixture
def chatty(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """A scripted chat model, and a short request deadline to cut a stream with."""
    changes = scripted_models(scripted, model_chat="openai:chat-model", request_deadline_s=2.0)
    return live_with(**changes)


def test_chat_streams_typed_events_memories_tokens_then_done(
    chatty: LiveServer, scripted: ScriptedModelServer
) -> None:
    answer = "You love jazz, and you live in Berlin."
    scripted.respond_with("chat", Reply.text(answer))
    with MemwardenAdmin(chatty.url, ADMIN_TOKEN) as admin:
        created = admin.contexts.create("chat", owner_subject="alice")
    assert created.owner_key is not None
    with Memwarden(chatty.url, created.owner_key.key, context_id=created.id) as client:
        client.remember("I love jazz. I live in Berlin.")
        got = list(client.chat_stream("What do I love?"))
        assert isinstance(got[0], models.ChatStreamMemories) and got[0].memories
        tokens = got[1:-1]
        assert len(tokens) > 1 and all(isinstance(t, models.ChatStreamToken) for t in tokens)
        assert "".join(t.text for t in tokens if isinstance(t, models.ChatStreamToken)) == answer
        done = got[-1]
        assert isinstance(done, models.ChatStreamDone) and done.turn_id and not done.cached
        again = client.chat("What do I love?", remember=False)
        assert again.answer == answer and again.cached is True

    async def streamed() -> list[models.ChatStreamToken]:
        assert created.owner_key is not None
        async with AsyncMemwarden(
            chatty.url, created.owner_key.key, context_id=created.id
        ) as client:
            return [
                event
                async for event in client.chat_stream("What do I love?", remember=False)
                if isinstance(event, models.ChatStreamToken)
            ]

    assert "".join(t.text for t in asyncio.run(streamed())) == answer


def test_a_stream_cut_after_it_started_ends_with_an_error_event_and_a_slow_answer_times_out(
    chatty: LiveServer, scripted: ScriptedModelServer
) -> None:
    with MemwardenAdmin(chatty.url, ADMIN_TOKEN) as admin:
        created = admin.contexts.create("cut", owner_subject="alice")
    assert created.owner_key is not None
    key, cid = created.owner_key.key, created.id
    scripted.script("chat", Reply.text("word " * 40).trickled(0.2))  # past the 2 s deadline
    with Memwarden(chatty.url, key, context_id=cid) as client:
        got = list(client.chat_stream("Tell me a story.", remember=False))
    assert any(isinstance(e, models.ChatStreamToken) for e in got)
    last = got[-1]
    assert isinstance(last, models.ChatStreamError) and last.error.code == "model_provider_error"
    scripted.script("chat", Reply.text("late").after(1.5))
    retries: list[RetryEvent] = []
    with (
        Memwarden(chatty.url, key, context_id=cid, timeout=0.5, on_retry=retries.append) as slow,
        pytest.raises(ConnectionFailed) as timed_out,
    ):
        slow.chat("Tell me another.", remember=False)
    assert timed_out.value.code == "timeout" and retries == []  # a chat is not sent twice


def test_reflection_without_a_chat_model_is_unavailable_with_its_code(mw: Memwarden) -> None:
    with pytest.raises(Unavailable) as unavailable:
        mw.reflect(scope="user/alice")
    assert unavailable.value.code == "reflection_model_unavailable"


def test_lists_follow_next_cursor_across_pages(mw: Memwarden) -> None:
    mw.remember_batch(["I am Alice.", "I live in Porto.", "I love jazz."])
    every = list(mw.changes())
    paged = list(mw.changes(limit=2))
    assert len(every) > 2 and [c.seq for c in paged] == [c.seq for c in every]
    later = list(mw.changes(cursor=None, limit=100))
    assert later[-1].seq == every[-1].seq
    for n in range(3):
        mw.keys.issue(f"reader-{n}", ["memory_read"])
    keys = list(mw.keys.list(limit=1))
    assert len(keys) == 4 and len({k.id for k in keys}) == 4
    actions = [event.action for event in mw.audit(limit=1)]
    assert actions.count("key.create") == 4  # the fixture's key, then these three


def test_the_memory_contract_and_review_verbs_round_trip_a_note(mw: Memwarden) -> None:
    scope = {"project_id": "p1", "visibility": "shared"}
    created = mw.memory.commands({"op": "create", "content": "Green tea, no sugar."}, scope=scope)
    rid = created.record_id
    read = mw.memory.read(rid, scope=scope)
    assert read.record.revision == 1 and read.record.kind == "note"
    hits = mw.memory.search(scope=scope, query="green tea").hits
    assert [h.record.id for h in hits] == [rid]
    vector = [1.0] + [0.0] * 383
    assert mw.memory.embeddings(rid, 1, vector, scope=scope).dimensions == 384
    decision = models.ReviewCommand(
        contract_version=1,
        record_id=rid,
        expected_revision=1,
        disposition="approved",
        evidence_ref="ticket://1",
        idempotency_key="case-1",
    )
    receipt = mw.memory.reviews(decision, scope=scope).receipt
    assert receipt.revision == 2 and receipt.disposition == "approved"
    assert mw.memory.review_state(rid, scope=scope).state.revision == 2
    assert mw.memory.review_read(rid, 2, scope=scope).receipt.receipt_id == receipt.receipt_id
    assert mw.memory.eligibility(rid, scope=scope).servable is True
    with pytest.raises(Conflict) as stale:
        mw.memory.commands(
            {"op": "update", "record_id": rid, "expected_revision": 1, "content": "Black tea."},
            scope=scope,
        )
    assert stale.value.code == "stale_revision"
    mw.memory.commands({"op": "delete", "record_id": rid, "expected_revision": 2}, scope=scope)
    with pytest.raises(NotFound):
        mw.memory.read(rid, scope=scope)


def test_hygiene_passes_usage_and_the_context_answer_typed(mw: Memwarden) -> None:
    written = mw.remember("I am Alice. I live in Porto.", scope="user/alice")
    # the first record hit (the turn's chunk may rank above it, and cannot be challenged)
    record = next(h for h in mw.query("Porto", scope="user/alice").hits if h.kind != "chunk")
    challenged = mw.hygiene.challenge(record.id, "She moved to Lisbon last year.")
    assert challenged.created is True and challenged.item is not None
    queued = list(mw.hygiene.queue())
    assert [item.id for item in queued] == [challenged.id]
    assert isinstance(mw.hygiene.resolve(challenged.id, "keep_both"), models.QueueResolved)
    with pytest.raises(Conflict) as decided:
        mw.hygiene.resolve(challenged.id, "keep_both")
    assert decided.value.code == "already_decided"
    assert [item.id for item in mw.hygiene.queue(status="resolved")] == [challenged.id]
    with pytest.raises(Conflict) as nothing:
        mw.hygiene.restore(record.id)
    assert nothing.value.code == "nothing_to_restore"
    started = mw.hygiene.scan()
    assert mw.hygiene.get_run(started.run_id).run_id == started.run_id
    run = mw.passes.run("gist")
    assert mw.passes.get_run(run.run_id).stage == "gist"
    with pytest.raises(NotFound):
        mw.passes.run("nonsense")  # type: ignore[arg-type]
    with pytest.raises(Conflict):  # its extraction did not fail: nothing to reprocess
        mw.reprocess_turn(written.turn_id)
    assert isinstance(mw.usage(days=1), models.UsageAnswer)
    assert mw.context().id == mw.context_id


def test_the_admin_clients_manage_contexts_keys_config_and_read_health(
    live: LiveServer, mw_admin: MemwardenAdmin
) -> None:
    first = mw_admin.contexts.create("one")
    second = mw_admin.contexts.create("two", owner_subject="owner")
    assert first.owner_key is None and second.owner_key is not None
    listed = [c.id for c in mw_admin.contexts.list(limit=1)]
    assert listed == [first.id, second.id]
    assert mw_admin.contexts.get(first.id).name == "one"
    issued = mw_admin.keys.issue(first.id, "bob", ["memory_read"], scope="user/bob")
    assert issued.key.startswith("mwk_") and issued.scope == "user/bob"
    assert [k.id for k in mw_admin.keys.list(first.id)] == [issued.id]
    assert mw_admin.keys.revoke(first.id, issued.id).id == issued.id
    patched = mw_admin.config.patch(first.id, {"judge": {"enabled": True}})
    assert patched.judge.enabled is True and mw_admin.config.get(first.id).judge.enabled
    report = mw_admin.health()
    assert report.status in ("ok", "degraded") and report.version
    assert [e.action for e in mw_admin.audit(first.id, action="key.")][:2] == [
        "key.revoke",
        "key.create",
    ]
    assert mw_admin.usage(first.id).total_tokens == 0

    async def scenario() -> list[str]:
        async with AsyncMemwardenAdmin(live.url, ADMIN_TOKEN) as admin:
            made = await admin.contexts.create("three")
            await admin.keys.issue(made.id, "carol", ["memory_read"])
            return [k.subject async for k in admin.keys.list(made.id)]

    assert asyncio.run(scenario()) == ["carol"]


def test_webhook_subscriptions_are_managed_through_the_client(mw: Memwarden) -> None:
    created = mw.webhooks.create(
        "http://127.0.0.1:9/hook", ["created", "deleted"], description="audit sink"
    )
    assert created.secret.startswith("whsec_") and created.status == "active"
    assert [w.id for w in mw.webhooks.list()] == [created.id]
    paused = mw.webhooks.patch(created.id, active=False)
    assert (paused.status, paused.paused_reason) == ("paused", "manual")
    assert mw.webhooks.get(created.id).status == "paused"
    rotated = mw.webhooks.rotate_secret(created.id)
    assert rotated.secret != created.secret
    assert list(mw.webhooks.deliveries(created.id)) == []
    assert mw.webhooks.delete(created.id).id == created.id
    with pytest.raises(NotFound):
        mw.webhooks.get(created.id)


def test_an_erasure_runs_to_done_and_the_record_is_gone(worked: Memwarden) -> None:
    worked.remember("I am Alice. I live in Porto.", scope="user/alice")
    (hit,) = [h for h in worked.query("Porto", scope="user/alice").hits if h.kind == "relation"]
    started = worked.erasures.start(record_ids=[hit.id])
    done = worked.erasures.wait(started.erasure_id, timeout=90, poll=0.2)
    assert done.status == "done" and done.counts.records >= 1
    assert hit.id not in [h.id for h in worked.query("Porto", scope="user/alice").hits]


def test_a_records_history_lists_its_revisions_newest_first(mw: Memwarden) -> None:
    note = mw.memory.commands({"op": "create", "content": "Green tea."})
    update = {"op": "update", "record_id": note.record_id, "expected_revision": 1}
    mw.memory.commands({**update, "content": "Black tea."})
    history = mw.record_history(note.record_id)
    assert isinstance(history, models.RecordHistory)
    assert history.record_id == note.record_id
    assert [r.revision for r in history.revisions] == [2, 1]
    assert mw.record_history(note.record_id, limit=1).next_cursor is not None
    with pytest.raises(NotFound):
        mw.record_history("00000000-0000-4000-8000-000000000000")


def test_an_export_streams_json_lines_and_an_import_of_texts_runs_to_done(
    worked: Memwarden, working: LiveServer, worked_ctx: dict[str, Any]
) -> None:
    worked.memory.commands({"op": "create", "content": "The launch window opens in May."})
    lines = list(worked.export())
    assert lines[0]["kind"] == "header" and lines[-1]["kind"] == "end"
    assert any("launch window" in str(line) for line in lines if line["kind"] == "record")
    body = "\n".join(json.dumps(t) for t in ["I love jazz.", {"text": "I live in Porto."}])
    seen: list[tuple[int, int]] = []
    started = worked.imports.start(
        body.encode(),
        source_dir="exports/texts",
        format="texts",
        scope="user/alice",
        progress=lambda sent, total: seen.append((sent, total)),
    )
    done = worked.imports.wait(started.import_id, timeout=90, poll=0.2)
    assert (started.format, started.total) == ("texts", 2)
    assert done.status == "done" and done.counts["imported"] == 2, done
    assert seen[-1] == (len(body), len(body))
    assert any("Porto" in str(h.content) for h in worked.query("Porto", scope="user/alice").hits)

    async def streamed() -> list[str]:
        async with AsyncMemwarden(working.url, worked_ctx["key"]) as client:
            return [line["kind"] async for line in client.export()]

    kinds = asyncio.run(streamed())
    assert kinds[0] == "header" and kinds[-1] == "end" and "record" in kinds
