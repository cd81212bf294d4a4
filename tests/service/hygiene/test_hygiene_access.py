"""What a key learns from hygiene (issue 23, item 11): run records need review over the
whole Context, a write-only challenger gets an acknowledgement without content, and an id
outside the key's scope answers as an unknown one does."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from memwarden.hygiene import queue, runs
from memwarden.pipeline.reprocess import reprocess_turn
from tests.service.hygiene.helpers import challenge, note, scan
from tests.service.usecases import facts, refused
from tests.support.services import ContextKey, ServiceHarness, as_json

ELSEWHERE = "project/p9"


def _run_id(h: ServiceHarness, ctx: ContextKey) -> uuid.UUID:
    started = h.run(runs.start_scan(h.services, ctx.caller, ctx.id))
    run_id = uuid.UUID(started.runId)
    h.run(runs.run_job(h.services, ctx.id, run_id))
    return run_id


def test_a_prefix_scoped_reviewer_cannot_read_a_whole_context_run(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    run_id = _run_id(svc, ctx)
    narrow = svc.add_key(ctx.id, ["memory_review"], "rhea", scope=ELSEWHERE)
    with refused(403, "missing_grant"):
        svc.run(runs.get_run(svc.services, narrow.caller, ctx.id, run_id))
    assert svc.run(runs.get_run(svc.services, ctx.caller, ctx.id, run_id)).status == "done"


def test_a_write_only_challenger_gets_an_acknowledgement_without_content(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    a = note(svc, ctx, "The office is in Oslo.")
    first = challenge(svc, ctx, a, "private detail: we moved in May")
    writer = svc.add_key(ctx.id, ["memory_write"], "wes")
    again = as_json(
        svc.run(queue.challenge(svc.services, writer.caller, ctx.id, uuid.UUID(a), "wrong"))
    )
    assert again["created"] is False and again["id"] == first["item"]["id"]
    assert again["item"] is None
    assert "Oslo" not in str(again) and "May" not in str(again)
    # A reviewer still sees the item in full.
    assert first["item"]["a"]["text"] == "The office is in Oslo."


def test_challenge_and_restore_outside_the_keys_scope_answer_as_for_an_unknown_id(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    a = uuid.UUID(note(svc, ctx, "The office is in Oslo."))
    narrow = svc.add_key(ctx.id, ["memory_write", "memory_review"], "rhea", scope=ELSEWHERE)
    unknown = uuid.uuid4()
    for record in (a, unknown):
        with refused(404):
            svc.run(queue.challenge(svc.services, narrow.caller, ctx.id, record, "wrong"))
        with refused(404):
            svc.run(queue.restore(svc.services, narrow.caller, ctx.id, record))


def test_reprocess_outside_the_keys_scope_answers_as_for_an_unknown_id(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    turn = uuid.UUID(facts(svc, ctx, "I like tea.")["turnId"])
    narrow = svc.add_key(ctx.id, ["memory_write"], "rhea", scope=ELSEWHERE)
    for item in (turn, uuid.uuid4()):
        with refused(404):
            svc.run(reprocess_turn(svc.services, narrow.caller, ctx.id, item))


def test_a_scan_is_still_refused_to_a_prefix_scoped_reviewer(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    narrow = svc.add_key(ctx.id, ["memory_review"], "rhea", scope=ELSEWHERE)
    with refused(403, "missing_grant"):
        scan(svc, narrow)
