"""Held content through the use cases: approve releases, reject deletes, a second decision
is 409."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import audits
from tests.service.usecases import decide_hold, facts, judgements, refused
from tests.support.replies import PASS_VERDICT, rows_reply, verdict
from tests.support.scripted_model import Reply

FACTS = "I'm Alice. I work at Acme. I love jazz."


def held_write(judging, judged, scripted):
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    assert facts(judging, ctx, FACTS)["held"] is True
    (held,) = judgements(judging, ctx, held=True)
    return ctx, held


def test_approve_releases_the_turn_chunks_and_records(
    judging, judged, scripted, sql, db_url
) -> None:
    ctx, held = held_write(judging, judged, scripted)
    records = sql("SELECT count(*) FROM memory_record WHERE serving = 'held'")[0][0]
    chunks = sql("SELECT count(*) FROM chunk WHERE serving = 'held'")[0][0]
    body = decide_hold(judging, ctx, held["id"], approve=True)
    assert body["changed"] == {"facts": records, "chunks": chunks, "turns": 1}
    assert body["judgement"]["hold_decision"] == "approved"
    assert sql("SELECT DISTINCT serving::text FROM memory_record") == [("live",)]
    assert sql("SELECT DISTINCT serving::text FROM turn") == [("live",)]
    assert judgements(judging, ctx, held=True) == []
    assert ("judge.approve", "judgement") in [(a, k) for a, k, _ in audits(db_url, ctx["id"])]


def test_reject_deletes_the_held_content(judging, judged, scripted, sql) -> None:
    """Deleted from the database, not marked: see test_hold_content for what else goes."""
    ctx, held = held_write(judging, judged, scripted)
    assert decide_hold(judging, ctx, held["id"], approve=False)["changed"]["turns"] == 1
    assert sql("SELECT count(*) FROM memory_record") == [(0,)]
    assert sql("SELECT count(*) FROM turn") == [(0,)]


@pytest.mark.parametrize(
    ("first", "second"), [("approve", "reject"), ("reject", "approve"), ("approve", "approve")]
)
def test_a_second_decision_on_the_same_judgement_is_409(
    judging, judged, scripted, first, second
) -> None:
    ctx, held = held_write(judging, judged, scripted)
    decide_hold(judging, ctx, held["id"], approve=first == "approve")
    with refused(409, "already_decided"):
        decide_hold(judging, ctx, held["id"], approve=second == "approve")


def test_a_judgement_that_holds_nothing_cannot_be_approved(judging, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    facts(judging, ctx, "hello", infer="none")
    (entry,) = judgements(judging, ctx)
    with refused(409, "not_held"):
        decide_hold(judging, ctx, entry["id"], approve=True)


def test_approving_a_held_fact_that_conflicts_leaves_both_current(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    scripted.script("judge", Reply.json(PASS_VERDICT))
    facts(judging, ctx, "I live in Oslo.")
    scripted.script("judge", verdict("warn", "personal_data"))
    facts(judging, ctx, "I live in Bergen.")
    (held,) = judgements(judging, ctx, held=True)
    decide_hold(judging, ctx, held["id"], approve=True)
    live = [
        b
        for (b,) in sql(
            "SELECT body FROM memory_record WHERE serving = 'live' AND kind <> 'entity'"
        )
    ]
    assert any("Oslo" in b for b in live) and any("Bergen" in b for b in live)


def test_released_records_are_embedded(judging, judged, scripted, sql) -> None:
    ctx, held = held_write(judging, judged, scripted)
    before = sql("SELECT count(*) FROM memory_embedding")[0][0]
    decide_hold(judging, ctx, held["id"], approve=True)
    assert sql("SELECT count(*) FROM memory_embedding")[0][0] > before
