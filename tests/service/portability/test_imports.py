"""Imports of mem0's export and of plain texts: provenance, original times, once per item,
the judge's refusals, the cross-project pin, and a run killed mid-way (issue 25)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from memwarden.erasure import run as erasure_run
from memwarden.erasure.contract import ErasureBody
from memwarden.erasure.service import request_erasure
from memwarden.errors import InvalidInput
from memwarden.portability import run
from memwarden.portability.formats import MAX_ITEMS
from tests.integration.judge.helpers import CARD
from tests.service.hygiene.helpers import scan
from tests.service.portability.helpers import (
    export_text,
    import_file,
    import_status,
    jsonl,
    start_import,
)
from tests.service.usecases import facts, refused
from tests.support.scripted_model import RecordedRequest, Reply, ScriptedModelServer
from tests.support.services import ContextKey, ServiceHarness

MEM0 = {
    "results": [
        {
            "id": "f38b689d-6b24-45b7-bced-17fbb4d8bac7",
            "memory": "I like green tea.",
            "user_id": "alex",
            "hash": "62bc074f56d1f909f1b4c2b639f56f6a",
            "metadata": None,
            "created_at": "2023-02-25T23:57:00.108347-07:00",
            "updated_at": "2024-07-25T23:57:00.108367-07:00",
        },
        {"id": "m-2", "memory": "I live in Lisbon.", "user_id": "alex", "created_at": None},
    ]
}


def _records(sql: Callable[..., list[tuple]], ctx: ContextKey) -> list[tuple[Any, ...]]:
    return sql(
        "SELECT body, source_kind, import_source_dir, created_at, valid_from, scope_path "
        "FROM memory_record WHERE context_id = %s ORDER BY body",
        (ctx.id,),
    )


def test_a_mem0_export_is_written_as_the_end_users_turns_pinned_to_its_source_with_its_times(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    done = import_file(svc, ctx, json.dumps(MEM0), "/home/alex/old-assistant")
    assert done["format"] == "mem0" and done["status"] == "done"
    assert done["counts"]["imported"] == 2 and done["processed"] == done["total"] == 2
    rows = _records(sql, ctx)
    assert rows and {r[1:3] for r in rows} == {("import", "/home/alex/old-assistant")}
    assert {r[5] for r in rows} == {"user/alex"}
    tea = [r for r in rows if "green tea" in r[0]]
    assert tea and all(r[3].isoformat() == "2023-02-26T06:57:00.108347+00:00" for r in tea)
    assert all(r[4] == r[3] for r in tea)
    speakers = sql("SELECT DISTINCT speaker FROM turn WHERE context_id = %s", (ctx.id,))
    assert speakers == [("user:alex",)]


def test_an_item_imported_again_is_skipped_and_nothing_is_written_twice(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    body = jsonl({"id": 1, "text": "I like chess."}, "I like go.", "I like go.")
    first = import_file(svc, ctx, body)
    assert first["counts"]["imported"] == 2 and first["counts"]["skipped"] == 1
    count = sql("SELECT count(*) FROM memory_record WHERE context_id = %s", (ctx.id,))
    again = import_file(svc, ctx, body)
    assert again["counts"]["skipped"] == 3 and again["counts"]["imported"] == 0
    assert sql("SELECT count(*) FROM memory_record WHERE context_id = %s", (ctx.id,)) == count
    turns = sql("SELECT count(*) FROM turn WHERE context_id = %s", (ctx.id,))
    assert turns == [(2,)]


def test_an_item_the_judge_refuses_is_reported_and_nothing_of_it_is_written(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context("judged", config={"judge": {"enabled": True}})
    scripted.respond_with("judge", lambda r: {"verdict": "pass", "reasons": []})
    scripted.respond_with("row_judge", _rows_pass)
    body = jsonl({"id": "ok", "text": "I like chess."}, {"id": "bad", "text": f"my card {CARD}"})
    done = import_file(judged, ctx, body)
    assert done["counts"]["refused"] == 1 and done["counts"]["imported"] == 1
    texts = sql("SELECT text FROM turn WHERE context_id = %s", (ctx.id,))
    assert texts == [("I like chess.",)]
    assert not sql(
        "SELECT 1 FROM memory_record WHERE context_id = %s AND body LIKE %s", (ctx.id, "%4111%")
    )
    payloads = sql("SELECT count(*) FROM import_item WHERE payload IS NOT NULL")
    assert payloads == [(0,)]  # the file's copy goes as each item is done


def _rows_pass(request: RecordedRequest) -> dict[str, Any]:
    """The row judge passes every row it is shown."""
    rows = json.loads(request.user[request.user.index("[") : request.user.rindex("]") + 1])
    return {"rows": [{"id": r["id"], "verdict": "pass", "reasons": []} for r in rows]}


def _attributes_duplicate(request: RecordedRequest) -> dict[str, Any]:
    if request.user.count("kind attribute") == 2:
        return {"verdict": "duplicate", "superseding": None, "confidence": 0.97}
    return {"verdict": "unrelated", "superseding": None, "confidence": 0.9}


def test_memories_imported_from_two_directories_are_never_paired_and_from_one_they_are(
    judged: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    """Two scopes that name no project: only the source directories can tell them apart."""
    ctx = judged.make_context()
    import_file(judged, ctx, jsonl("I'm Alice, CTO at Acme."), "/src/falcon", scope="agent/x")
    import_file(judged, ctx, jsonl("I'm Alice, CEO at Acme."), "/src/osprey", scope="agent/y")
    scripted.respond_with("hygiene", _attributes_duplicate)
    crossed = scan(judged, ctx)
    assert crossed["counts"]["skipped_cross_project"] >= 1
    asked = [r.user for r in scripted.requests_for("hygiene")]
    assert not [u for u in asked if "CTO" in u and "CEO" in u]

    other = judged.make_context("other")
    import_file(judged, other, jsonl("I'm Alice, CTO at Acme."), "/src/falcon", scope="agent/x")
    import_file(judged, other, jsonl("I'm Alice, CEO at Acme."), "/src/falcon", scope="agent/y")
    same = scan(judged, other)
    assert same["counts"]["skipped_cross_project"] == 0
    asked = [r.user for r in scripted.requests_for("hygiene")]
    assert [u for u in asked if "CTO" in u and "CEO" in u]


def test_an_import_killed_mid_way_resumes_where_it_stopped_and_counts_each_item_once(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    texts = [f"I like game number {n}." for n in range(8)]
    import_id = start_import(svc, ctx, jsonl(*texts))

    async def kill_after_two() -> None:
        job = asyncio.ensure_future(run.execute(svc.services, ctx.id, import_id))
        while True:
            await asyncio.sleep(0.01)
            async with svc.services.db.connection() as conn:
                cur = await conn.execute(
                    "SELECT processed FROM import_run WHERE id = %s", (import_id,)
                )
                row = await cur.fetchone()
            if row is not None and row["processed"] >= 2:
                break
        job.cancel()  # the worker dies: its open transaction rolls back
        with pytest.raises(asyncio.CancelledError):
            await job

    svc.run(kill_after_two())
    stopped = import_status(svc, ctx, import_id)
    assert stopped["status"] == "running" and 2 <= stopped["processed"] < 8
    assert svc.run(run.execute(svc.services, ctx.id, import_id)) == "done"
    done = import_status(svc, ctx, import_id)
    assert done["processed"] == 8 and done["counts"]["imported"] == 8
    assert sql("SELECT count(*) FROM turn WHERE context_id = %s", (ctx.id,)) == [(8,)]
    outcomes = sql(
        "SELECT count(*) FROM import_item WHERE import_id = %s AND outcome IS NULL", (import_id,)
    )
    assert outcomes == [(0,)]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"text": "ok"}\nnot json\n', "line 2: not a JSON value"),
        (jsonl({"text": ""}), "line 1: text must be a non-empty string"),
        (jsonl({"text": "x" * 128_001}), "line 1: text holds more than 128000 characters"),
        ('{"kind": "header", "format": "memwarden-export", "version": 2}\n', "version 1"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_whole_naming_the_line(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]], body: str, message: str
) -> None:
    with refused(400, "invalid_request", "body") as exc:
        start_import(svc, ctx, body)
    assert message in exc.value.message
    assert sql("SELECT count(*) FROM import_run") == [(0,)]


def test_the_longest_text_is_taken_and_the_most_items_are_counted_at_their_edge(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    start_import(svc, ctx, jsonl({"text": "x" * 128_000}))
    too_many = jsonl(*([{"text": "a"}] * (MAX_ITEMS + 1)))
    with pytest.raises(InvalidInput, match=f"at most {MAX_ITEMS} items"):
        start_import(svc, ctx, too_many)


def test_a_key_without_write_over_the_scope_or_manage_for_an_export_is_refused(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    reader = svc.add_key(ctx.id, ["memory_read"], subject="bob")
    with refused(403, "missing_grant"):
        start_import(svc, reader, jsonl("I like chess."))
    writer = svc.add_key(ctx.id, ["memory_read", "memory_write"], subject="carol")
    header = {"kind": "header", "format": "memwarden-export", "version": 1}
    with refused(403, "missing_grant"):
        start_import(svc, writer, jsonl(header, {"kind": "principal", "id": "p"}))
    with refused(404, "import_not_found"):
        import_status(svc, writer, start_import(svc, ctx, jsonl("I like go.")))
    with refused(404, "import_not_found"):
        import_status(svc, ctx, uuid.uuid4())


def test_an_import_whose_job_was_lost_is_queued_again_by_the_minute_sweep(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    import_id = start_import(svc, ctx, jsonl("I like go."))
    jobs = "SELECT status FROM procrastinate_jobs WHERE args->>'import_id' = %s"
    assert sql(jobs, (str(import_id),)) == [("todo",)]
    sql("DELETE FROM procrastinate_jobs WHERE args->>'import_id' = %s", (str(import_id),))
    assert svc.run(run.resume_open(svc.services)) == 0  # too recent to call lost
    sql(
        "UPDATE import_run SET created_at = now() - interval '5 minutes' WHERE id = %s",
        (import_id,),
    )
    assert svc.run(run.resume_open(svc.services)) == 1
    assert sql(jobs, (str(import_id),)) == [("todo",)]
    assert svc.run(run.execute(svc.services, ctx.id, import_id)) == "done"
    assert svc.run(run.resume_open(svc.services)) == 0


def test_an_erasure_of_an_imported_turns_session_erases_the_records_extracted_from_it(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    marker = f"zq7{uuid.uuid4().hex[:12]}"
    import_file(svc, ctx, jsonl(f"I like {marker} tea."))
    (session,) = sql("SELECT session_id FROM turn WHERE context_id = %s", (ctx.id,))[0]
    assert sql("SELECT 1 FROM memory_record WHERE body LIKE %s", (f"%{marker}%",))
    started = svc.run(
        request_erasure(svc.services, ctx.caller, ctx.id, ErasureBody(sessionId=session))
    )
    assert (
        svc.run(erasure_run.execute(svc.services, ctx.id, uuid.UUID(started.erasureId))) == "done"
    )
    assert not sql("SELECT 1 FROM memory_record WHERE body LIKE %s", (f"%{marker}%",))


def test_a_judge_that_cannot_be_reached_stops_the_import_and_the_file_sent_again_finishes_it(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context("judged", config={"judge": {"enabled": True}})
    scripted.respond_with("judge", Reply.error(500))
    body = jsonl({"id": "a", "text": "I like chess."}, {"id": "b", "text": "I like go."})
    import_id = start_import(judged, ctx, body)
    assert judged.run(run.execute(judged.services, ctx.id, import_id)) == "failed"
    stopped = import_status(judged, ctx, import_id)
    assert stopped["error"] == "judge_unavailable" and stopped["processed"] == 0
    assert sql("SELECT count(*) FROM turn WHERE context_id = %s", (ctx.id,)) == [(0,)]
    scripted.respond_with("judge", lambda r: {"verdict": "pass", "reasons": []})
    scripted.respond_with("row_judge", _rows_pass)
    again = import_file(judged, ctx, body)
    assert again["counts"]["imported"] == 2


def test_an_item_the_judge_warns_about_is_held_for_a_reviewer_under_on_warn_hold(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context("judged", config={"judge": {"enabled": True, "on_warn": "hold"}})
    scripted.respond_with("judge", lambda r: {"verdict": "warn", "reasons": ["personal_data"]})
    scripted.respond_with("row_judge", _rows_pass)
    done = import_file(judged, ctx, jsonl({"id": "w", "text": "I like chess."}))
    assert done["counts"]["held"] == 1 and done["counts"]["imported"] == 0
    servings = sql(
        "SELECT DISTINCT serving::text FROM memory_record WHERE context_id = %s", (ctx.id,)
    )
    assert servings == [("held",)]
    assert sql("SELECT count(*) FROM judgement WHERE context_id = %s AND held", (ctx.id,)) == [(1,)]


def test_records_of_an_export_pass_the_judge_as_writes_do_refused_held_and_kept(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    source = judged.make_context("source")
    facts(judged, source, "I like chess.")
    facts(judged, source, "I like go.")
    exported = export_text(judged, source)
    target = judged.make_context("target", config={"judge": {"enabled": True, "on_warn": "hold"}})

    def verdict(request: RecordedRequest) -> dict[str, Any]:
        if "go" in request.user:
            return {"verdict": "fail", "reasons": ["policy"]}
        if "chess" in request.user:
            return {"verdict": "warn", "reasons": ["personal_data"]}
        return {"verdict": "pass", "reasons": []}

    scripted.respond_with("judge", verdict)
    scripted.respond_with("row_judge", _rows_pass)
    done = import_file(judged, target, exported)
    assert done["counts"]["refused"] >= 1 and done["counts"]["held"] >= 1
    bodies = dict(
        sql("SELECT body, serving::text FROM memory_record WHERE context_id = %s", (target.id,))
    )
    assert not [b for b in bodies if " go" in b]
    assert {s for b, s in bodies.items() if "chess" in b} == {"held"}
