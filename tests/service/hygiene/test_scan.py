"""A hygiene cycle on a real database: candidates, the cross-project filter, the judging
paths, routing applied, the queue and its corrections (issue 11)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.service.hygiene.helpers import (
    CHEAP,
    STRONG,
    challenge,
    items,
    note,
    resolve,
    restore,
    scan,
)
from tests.service.usecases import facts, refused
from tests.support.scripted_model import RecordedRequest, ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness

SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}


@pytest.fixture
def judged(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    """Both judging paths on the scripted server (the embedder stays the local one)."""
    return services_with(
        **scripted_models(scripted, model_adjudication=STRONG, model_hygiene=CHEAP)
    )


def _serving(sql: Callable[..., list[tuple]], record_id: str) -> str:
    return sql("SELECT serving::text FROM memory_record WHERE id = %s", (record_id,))[0][0]


def test_an_authoritative_pair_goes_to_the_queue_on_the_adjudication_model(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    b = note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    run = scan(judged, ctx)
    assert run["status"] == "done"
    counts = run["counts"]
    assert counts["subjects"] == 2 and counts["pairs_judged"] == 1 and counts["queued"] == 1
    assert counts["auto_resolved"] == 0 and counts["stopped_on_queue_cap"] is False
    assert [r.model for r in scripted.requests_for("adjudication")] == ["strong-judge"]
    assert scripted.requests_for("hygiene") == []
    [item] = items(judged, ctx)
    assert {item["a"]["id"], item["b"]["id"]} == {a, b}
    assert item["verdict"] == "supersedes" and item["judge_model"] == STRONG
    assert item["judging_path"] == "adjudication" and item["confidence"] == 0.95
    assert item["a"]["provenance"]["rank_name"] == "authoritative"
    assert item["a"]["text"] and item["created_at"]
    assert item["a"]["scope"]["path"] == "project/p1/agent/a1"
    # Never auto-applied: both stay live until a person decides.
    assert _serving(sql, a) == _serving(sql, b) == "live"
    usage = sql("SELECT stage, calls FROM usage WHERE context_id = %s", (ctx.id,))
    assert ("adjudication", 1) in usage


def test_a_second_scan_never_queues_or_judges_the_same_pair_again(
    judged: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    note(judged, ctx, "Lunch is served at noon in the canteen.")
    again = scan(judged, ctx)
    assert again["counts"]["queued"] == 0
    assert len(scripted.requests_for("adjudication")) == 1 + again["counts"]["pairs_judged"]
    assert len(items(judged, ctx)) == 1


def test_resolving_keep_a_supersedes_b_and_a_second_decision_is_409(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    [item] = items(judged, ctx)
    done = resolve(judged, ctx, item["id"], "keep_a")["item"]
    assert done["status"] == "resolved" and done["resolution"] == "keep_a"
    assert done["decided_by"] == "alice"
    assert _serving(sql, item["a"]["id"]) == "live"
    assert _serving(sql, item["b"]["id"]) == "superseded"
    with refused(409, "already_decided"):
        resolve(judged, ctx, item["id"], "keep_b")
    assert items(judged, ctx) == [] and len(items(judged, ctx, "resolved")) == 1
    ops = sql("SELECT op FROM memory_revision WHERE record_id = %s", (item["b"]["id"],))
    assert ("supersede",) in ops
    audit = sql("SELECT action FROM audit_event WHERE action LIKE 'hygiene.%%'")
    assert ("hygiene.resolve",) in audit and ("hygiene.queue",) in audit


def _provisional_pair(h: ServiceHarness, ctx: ContextKey) -> None:
    """The same slot captured in two scopes, so reconciliation did not settle it: the older
    at the key's scope, the newer below it (where the replacement rule lets it retire the
    older: every reader of the one reads the other)."""
    facts(h, ctx, "I'm Alice, CTO at Acme.")
    facts(h, ctx, "I'm Alice, CEO at Acme.", scope=["team/a"])


def _attributes_duplicate(request: RecordedRequest) -> dict[str, Any]:
    if request.user.count("kind attribute") == 2:
        return {"verdict": "duplicate", "superseding": None, "confidence": 0.97}
    return {"verdict": "unrelated", "superseding": None, "confidence": 0.9}


def test_a_provisional_duplicate_auto_resolves_reversibly_and_restore_undoes_it(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    _provisional_pair(judged, ctx)
    scripted.respond_with("hygiene", _attributes_duplicate)
    run = scan(judged, ctx)
    assert run["counts"]["auto_resolved"] >= 1, run
    assert scripted.requests_for("adjudication") == []  # provisional pairs: the cheap path
    losers = sql("SELECT id FROM memory_record WHERE kind = 'attribute' AND serving = 'superseded'")
    assert len(losers) == run["counts"]["auto_resolved"]
    loser = losers[0][0]
    assert items(judged, ctx) == []  # nothing for a person
    restored = restore(judged, ctx, str(loser))
    assert restored["serving"] == "live"
    assert _serving(sql, str(loser)) == "live"
    [(vector_revision, revision)] = sql(
        "SELECT embedding_revision, revision FROM memory_record WHERE id = %s", (loser,)
    )
    assert vector_revision == revision  # searchable again at its new revision
    with refused(409, "nothing_to_restore"):
        restore(judged, ctx, str(loser))
    # Undone by a person: the next cycle never auto-resolves the pair again.
    assert scan(judged, ctx)["counts"]["auto_resolved"] == 0


def test_restore_without_an_automatic_resolution_is_409(
    judged: ServiceHarness,
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    with refused(409, "nothing_to_restore"):
        restore(judged, ctx, a)


def test_a_provably_cross_project_pair_is_skipped_without_a_judge_call(
    judged: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    ctx = judged.make_context()
    facts(judged, ctx, "I'm Alice, CTO at Acme.", scope=["project/falcon"])
    facts(judged, ctx, "I'm Alice, CEO at Acme.", scope=["project/osprey"])
    scripted.respond_with("hygiene", _attributes_duplicate)
    run = scan(judged, ctx)
    assert run["counts"]["skipped_cross_project"] >= 1
    # Pairs within one project are judged; none across the two ever reaches the judge.
    asked = [r.user for r in scripted.requests_for("hygiene")]
    assert len(asked) == run["counts"]["pairs_judged"]
    assert not [u for u in asked if "CTO" in u and "CEO" in u]
    assert run["counts"]["auto_resolved"] == 0


def test_the_offline_adjudicator_auto_resolves_a_provisional_supersede_without_models(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    _provisional_pair(svc, ctx)
    run = scan(svc, ctx)
    assert run["status"] == "done" and run["counts"]["pairs_judged"] >= 1
    judges = sql("SELECT DISTINCT judge_model FROM hygiene_judged")
    assert judges == [("offline",)]


def test_a_challenge_queues_the_memory_for_a_person_without_invalidating_it(
    judged: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The office is in Oslo.")
    first = challenge(judged, ctx, a, "we moved to Bergen in May")
    assert first["created"] is True
    item = first["item"]
    assert item["origin"] == "challenge" and item["status"] == "pending"
    assert item["reason"] == "we moved to Bergen in May" and item["b"] is None
    assert challenge(judged, ctx, a, "again")["created"] is False
    assert _serving(sql, a) == "live"
    with refused(400, field="resolution"):
        resolve(judged, ctx, item["id"], "keep_a")
    assert resolve(judged, ctx, item["id"], "keep_both")["item"]["status"] == "resolved"


def test_the_stale_sweep_dismisses_a_pending_pair_whose_side_left_service(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    b = note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    sql("UPDATE memory_record SET serving = 'deleted', deleted_at = now() WHERE id = %s", (b,))
    run = scan(judged, ctx)
    assert run["counts"]["dismissed"] == 1
    [item] = items(judged, ctx, "dismissed")
    assert item["dismissed_because"] == "stale"


def test_rejudge_dismisses_pending_pairs_the_current_judge_calls_complementary(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    b = note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    scripted.respond_with(
        "adjudication", {"verdict": "complementary", "superseding": None, "confidence": 0.9}
    )
    run = scan(judged, ctx, rejudge=True)
    assert run["counts"]["dismissed"] == 1
    assert items(judged, ctx) == []
    assert [i["dismissed_because"] for i in items(judged, ctx, "dismissed")] == ["rejudged"]
    assert _serving(sql, a) == _serving(sql, b) == "live"  # loss-free


def test_the_queue_cap_stops_the_run_and_records_it(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context(config={"hygiene": {"max_queue_rows_per_run": 1}})
    for text in ("every month", "every week", "every day", "every hour"):
        note(judged, ctx, f"The deploy key rotates {text}.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    run = scan(judged, ctx)
    assert run["counts"]["queued"] == 1 and run["counts"]["stopped_on_queue_cap"] is True
    assert sql("SELECT count(*) FROM audit_event WHERE action = 'hygiene.queue_cap_stop'") == [(1,)]
    # The subjects it did not reach lead the next run.
    nxt = scan(judged, ctx)
    assert nxt["counts"]["subjects"] >= 1


def test_a_scan_needs_memory_review_over_the_whole_context(judged: ServiceHarness) -> None:
    ctx = judged.make_context()
    writer = judged.add_key(ctx.id, ["memory_read", "memory_write"], "wendy")
    with refused(403, "missing_grant"):
        scan(judged, writer)


def test_a_much_recalled_memory_is_reexamined_once_per_judge_model(
    services_with: Callable[..., ServiceHarness],
    scripted: ScriptedModelServer,
    sql: Callable[..., list[tuple]],
) -> None:
    first = services_with(**scripted_models(scripted, model_adjudication=STRONG))
    ctx = first.make_context()
    a = note(first, ctx, "The deploy key rotates every month.")
    note(first, ctx, "Lunch is served at noon.")
    scripted.respond_with(
        "adjudication", {"verdict": "unrelated", "superseding": None, "confidence": 0.9}
    )
    sql(
        "INSERT INTO recall_event (context_id, record_id, day, hits) "
        "VALUES (%s, %s, current_date, 12)",
        (ctx.id, a),
    )
    assert scan(first, ctx)["counts"]["reexamined"] == 1
    guards = sql("SELECT record_id::text, judge_model FROM reexamination_guard")
    assert guards == [(a, STRONG)]
    assert scan(first, ctx)["counts"]["reexamined"] == 0  # this judge has looked
    upgraded = services_with(**scripted_models(scripted, model_adjudication="openai:stronger"))
    assert scan(upgraded, ctx)["counts"]["reexamined"] == 1  # a new judge looks again
    examined = sql("SELECT count(*) FROM audit_event WHERE action = 'hygiene.examine'")
    assert examined == [(2,)]


def test_a_memory_recalled_less_than_the_floor_is_not_reexamined(
    judged: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    sql(
        "INSERT INTO recall_event (context_id, record_id, day, hits) "
        "VALUES (%s, %s, current_date - 100, 50), (%s, %s, current_date, 9)",
        (ctx.id, a, ctx.id, a),
    )
    assert scan(judged, ctx)["counts"]["reexamined"] == 0


def test_a_confident_complementary_pair_is_linked_and_never_queued(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with(
        "adjudication", {"verdict": "complementary", "superseding": None, "confidence": 0.85}
    )
    run = scan(judged, ctx)
    assert run["counts"]["linked"] == 1 and run["counts"]["queued"] == 0
    assert sql("SELECT kind, confidence FROM memory_link") == [("complementary", 0.85)]
    assert items(judged, ctx) == []


def test_a_spent_token_budget_stops_the_run_and_says_so(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context(config={"token_budget": {"limit": 10}})
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    sql(
        "INSERT INTO usage (context_id, day, stage, model, calls, prompt_tokens, "
        "completion_tokens) VALUES (%s, current_date, 'judge', 'x', 1, 10, 5)",
        (ctx.id,),
    )
    scripted.respond_with("adjudication", SUPERSEDES_B)
    run = scan(judged, ctx)
    assert run["status"] == "failed" and run["error"] == "token_budget_exhausted"
    assert scripted.requests_for("adjudication") == []
