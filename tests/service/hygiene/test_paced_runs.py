"""Paced, not dropped (issue 23, items 4, 9 and 11): a pair judged past the queue cap, or
whose judge call failed, is judged again in a later run; every call's usage is booked; a
failed call is not a look; and the run's counts agree with its audit events."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from tests.service.hygiene.helpers import STRONG, items, note, scan
from tests.support.scripted_model import (
    RecordedRequest,
    Reply,
    ScriptedModelServer,
    scripted_models,
)
from tests.support.services import ServiceHarness

SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}
UNRELATED = {"verdict": "unrelated", "superseding": None, "confidence": 0.9}
TEXTS = ("every month", "every week", "every day", "every hour")


@pytest.fixture
def judged(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    return services_with(**scripted_models(scripted, model_adjudication=STRONG))


def _booked_calls(sql: Callable[..., list[tuple]], stage: str) -> int:
    rows = sql("SELECT coalesce(sum(calls), 0) FROM usage WHERE stage = %s", (stage,))
    return int(rows[0][0])


def _pairs(rows: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset((i["a"]["id"], i["b"]["id"])) for i in rows}


def test_pairs_judged_past_the_queue_cap_are_judged_again_later_and_every_call_is_booked(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context(config={"hygiene": {"max_queue_rows_per_run": 1}})
    ids = [note(judged, ctx, f"The deploy key rotates {text}.") for text in TEXTS]
    scripted.respond_with("adjudication", SUPERSEDES_B)
    for _ in range(12):  # one queue row a run: paced
        if scan(judged, ctx)["counts"]["queued"] == 0:
            break
    every_pair = {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert _pairs(items(judged, ctx)) == every_pair  # none dropped for good
    assert _booked_calls(sql, "adjudication") == len(scripted.requests_for("adjudication"))


def test_a_pair_whose_judge_call_failed_is_judged_again_in_the_next_run(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    b = note(judged, ctx, "The deploy key rotates every week.")
    down = {"on": True}

    def reply(_request: RecordedRequest) -> Reply | dict[str, Any]:
        return Reply.text("not a verdict") if down["on"] else SUPERSEDES_B

    scripted.respond_with("adjudication", reply)
    first = scan(judged, ctx)
    assert first["status"] == "done" and first["counts"]["queued"] == 0
    assert len(scripted.requests_for("adjudication")) >= 1
    down["on"] = False
    second = scan(judged, ctx)
    assert second["counts"]["queued"] == 1
    assert _pairs(items(judged, ctx)) == {frozenset((a, b))}
    assert _booked_calls(sql, "adjudication") == len(scripted.requests_for("adjudication"))


def test_a_reexamination_whose_every_judge_call_failed_is_not_stamped(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    sql(
        "INSERT INTO recall_event (context_id, record_id, day, hits) "
        "VALUES (%s, %s, current_date, 12)",
        (ctx.id, a),
    )
    scripted.respond_with("adjudication", Reply.error(500))
    failed = scan(judged, ctx)
    assert failed["counts"]["reexamined"] == 0
    assert sql("SELECT count(*) FROM reexamination_guard") == [(0,)]
    assert sql("SELECT count(*) FROM audit_event WHERE action = 'hygiene.examine'") == [(0,)]
    scripted.respond_with("adjudication", UNRELATED)
    looked = scan(judged, ctx)
    assert looked["counts"]["reexamined"] == 1
    assert sql("SELECT record_id::text, judge_model FROM reexamination_guard") == [(a, STRONG)]


def test_the_dismissed_count_agrees_with_the_dismissal_audit_events(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", UNRELATED)
    run = scan(judged, ctx)
    assert run["counts"]["pairs_judged"] == 1
    audited = sql("SELECT count(*) FROM audit_event WHERE action = 'hygiene.dismiss'")[0][0]
    assert run["counts"]["dismissed"] == audited
    assert run["counts"]["unrelated"] == 1
