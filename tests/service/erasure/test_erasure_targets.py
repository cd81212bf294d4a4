"""Erasure by scope prefix and by record ids, and a run that stopped mid-way, at the
service tier: the use cases and the job called directly, the database dumped after."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from memwarden.erasure import run
from memwarden.erasure.contract import ErasureBody
from memwarden.erasure.service import get_erasure, request_erasure, target_params
from memwarden.store import erasure as store
from tests.integration.erasure.test_erasure_proof import database_dump
from tests.service.usecases import facts
from tests.support.services import ContextKey, ServiceHarness, as_json


def marker() -> str:
    return f"zq7marker{uuid.uuid4().hex}"


def erase(h: ServiceHarness, ctx: ContextKey, **target: object) -> dict:
    """POST /erasures's use case, then the job as the worker runs it; the erasure as GET
    shows it."""
    started = h.run(request_erasure(h.services, ctx.caller, ctx.id, ErasureBody(**target)))
    erasure_id = uuid.UUID(started.erasureId)
    assert h.run(run.execute(h.services, ctx.id, erasure_id)) == "done"
    return as_json(h.run(get_erasure(h.services, ctx.caller, ctx.id, erasure_id)))


def test_a_scope_prefix_erasure_removes_everything_inside_it_and_nothing_outside(
    svc: ServiceHarness, ctx: ContextKey, db_url: str
) -> None:
    inside, below, outside = marker(), marker(), marker()
    facts(svc, ctx, f"I love {inside}tea.", scope=["team/a"])
    facts(svc, ctx, f"I love {below}tea.", scope=["team/a/x"])
    facts(svc, ctx, f"I love {outside}tea.", scope=["team/ab"])
    done = erase(svc, ctx, scopePrefix="team/a")
    assert done["status"] == "done" and done["counts"]["turns"] == 2
    dump = database_dump(db_url)
    assert inside.encode() not in dump and below.encode() not in dump
    assert outside.encode() in dump  # team/ab is not below team/a


def test_a_record_ids_erasure_removes_the_records_and_the_turns_they_were_said_in(
    svc: ServiceHarness, ctx: ContextKey, db_url: str, sql: Callable[..., list[tuple]]
) -> None:
    gone, kept = marker(), marker()
    turn = facts(svc, ctx, f"I love {gone}tea.")["turnId"]
    facts(svc, ctx, f"I love {kept}tea.")
    ids = [r[0] for r in sql("SELECT id FROM memory_record WHERE source_ref = %s", (turn,))]
    named = [
        i
        for i in ids
        if sql("SELECT body LIKE %s FROM memory_record WHERE id = %s", (f"%{gone}%", i))[0][0]
    ]
    assert named
    done = erase(svc, ctx, recordIds=named)
    assert done["counts"]["records"] >= len(named) and done["counts"]["turns"] == 1
    dump = database_dump(db_url)
    assert gone.encode() not in dump and kept.encode() in dump
    states = sql("SELECT DISTINCT serving::text FROM memory_record WHERE id = ANY(%s)", (named,))
    assert states == [("erased",)]
    ops = sql("SELECT op, content IS NULL FROM memory_revision WHERE record_id = %s", (named[0],))
    assert ("erase", True) in ops and all(empty for _op, empty in ops)


def test_a_run_that_stopped_mid_way_is_finished_by_the_next_and_a_third_changes_nothing(
    svc: ServiceHarness, ctx: ContextKey, db_url: str, sql: Callable[..., list[tuple]]
) -> None:
    mark = marker()
    for n in range(3):
        facts(svc, ctx, f"I love {mark}{n}tea.")
    started = svc.run(
        request_erasure(svc.services, ctx.caller, ctx.id, ErasureBody(subject="alice"))
    )
    erasure_id = uuid.UUID(started.erasureId)

    async def first_batch_only() -> None:
        """What a worker killed after one committed batch leaves: a running erasure, one
        batch of records erased, the rest untouched."""
        async with svc.services.db.transaction() as conn:
            kind, target = await store.start(conn, ctx.id, erasure_id) or ("", {})
            principal = await store.principal_of(conn, ctx.id, "alice")
            resolved = await store.resolve(conn, target_params(ctx.id, kind, target, principal))
            picked = await store.pick(conn, "facts", resolved.params, 1)
            counts = await store.tombstone_records(conn, ctx.id, picked, "test")
            await store.add_counts(conn, ctx.id, erasure_id, {"records": counts["_records"]})

    svc.run(first_batch_only())
    partial = sql("SELECT status, counts FROM erasure WHERE id = %s", (erasure_id,))
    assert partial[0][0] == "running" and partial[0][1]["records"] == 1
    assert mark.encode() in database_dump(db_url)

    assert svc.run(run.execute(svc.services, ctx.id, erasure_id)) == "done"
    finished = as_json(svc.run(get_erasure(svc.services, ctx.caller, ctx.id, erasure_id)))
    assert mark.encode() not in database_dump(db_url)
    erased = sql("SELECT count(*) FROM memory_record WHERE serving = 'erased'")[0][0]
    assert finished["counts"]["records"] == erased  # the first batch counted once

    assert svc.run(run.execute(svc.services, ctx.id, erasure_id)) == "skipped"
    sql("UPDATE erasure SET status = 'running' WHERE id = %s", (erasure_id,))
    assert svc.run(run.execute(svc.services, ctx.id, erasure_id)) == "done"
    again = as_json(svc.run(get_erasure(svc.services, ctx.caller, ctx.id, erasure_id)))
    assert again["counts"] == finished["counts"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"subject": "alice", "scopePrefix": "team/a"},
        {"scopePrefix": ""},
        {"recordIds": []},
        {"subject": "alice", "reason": "asked by email"},
        {"speaker": "not an id"},
    ],
)
def test_an_erasure_names_exactly_one_valid_target_and_no_reason(body: dict) -> None:
    with pytest.raises(ValueError):
        ErasureBody(**body)


def test_a_speaker_erasure_removes_what_the_end_user_said_and_not_another_users(
    svc: ServiceHarness, ctx: ContextKey, db_url: str, sql: Callable[..., list[tuple]]
) -> None:
    dana, erin = marker(), marker()
    facts(svc, ctx, f"I love {dana}tea.", scope=["org/acme/user/dana"])
    facts(svc, ctx, f"I love {erin}tea.", scope=["org/acme/user/erin"])
    speakers = {r[0] for r in sql("SELECT norm_name FROM memory_record WHERE kind = 'entity'")}
    assert "speaker:user:dana" in speakers
    done = erase(svc, ctx, speaker="dana")
    assert done["counts"]["turns"] == 1 and done["counts"]["records"] >= 2
    dump = database_dump(db_url)
    assert dana.encode() not in dump and b"speaker:user:dana" not in dump
    assert erin.encode() in dump and b"speaker:user:erin" in dump


def test_a_session_erasure_removes_its_turns_and_leaves_the_other_session(
    svc: ServiceHarness, ctx: ContextKey, db_url: str
) -> None:
    gone, kept = marker(), marker()
    first = facts(svc, ctx, f"I love {gone}tea.")["sessionId"]
    facts(svc, ctx, f"I own {gone}boat.", session_id=first)
    facts(svc, ctx, f"I love {kept}tea.")
    done = erase(svc, ctx, sessionId=first)
    assert done["counts"]["turns"] == 2 and done["counts"]["sessions"] == 1
    dump = database_dump(db_url)
    assert gone.encode() not in dump and kept.encode() in dump


def test_an_erasure_whose_job_was_lost_is_queued_again_once(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    started = svc.run(
        request_erasure(svc.services, ctx.caller, ctx.id, ErasureBody(subject="alice"))
    )
    jobs = "SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'memwarden:erasure_run'"
    assert sql(jobs) == [(1,)]
    assert svc.run(run.resume_open(svc.services)) == 0  # too young to be called lost
    sql("DELETE FROM procrastinate_jobs")  # a crash between the commit and the queueing
    sql("UPDATE erasure SET created_at = now() - interval '10 minutes'")
    assert svc.run(run.resume_open(svc.services)) == 1
    assert svc.run(run.resume_open(svc.services)) == 1  # asked again: still one job
    assert sql(jobs) == [(1,)]
    erasure_id = uuid.UUID(started.erasureId)
    assert svc.run(run.execute(svc.services, ctx.id, erasure_id)) == "done"
    assert svc.run(run.resume_open(svc.services)) == 0
