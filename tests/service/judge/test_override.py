"""Overrides through the use case: the reviewer's verdict beside the judge's, and the
replay states."""

from __future__ import annotations

import json

from tests.integration.judge.helpers import audits
from tests.service.usecases import facts, judgement, judgements, override_judgement, refused
from tests.support.replies import rows_reply, verdict

FACTS = "I'm Alice. I work at Acme."


def refused_write(judging, judged, scripted, **judge):
    ctx = judged(**judge)
    scripted.script("judge", verdict("fail", "policy"))
    with refused(422):
        facts(judging, ctx, FACTS)
    (entry,) = judgements(judging, ctx)
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    return ctx, entry


def test_an_override_records_the_reviewers_verdict_beside_the_judges(
    judging, judged, scripted, db_url
) -> None:
    ctx, entry = refused_write(judging, judged, scripted)
    body = override_judgement(judging, ctx, entry["id"], "pass")
    assert body["replay"] == "not_requested"
    shown = judgement(judging, ctx, entry["id"])
    assert shown["verdict"] == "fail" and shown["override"]["verdict"] == "pass"
    assert shown["override"]["by"] == "alice" and shown["effective_verdict"] == "pass"
    assert ("judge.override", "judgement", entry["id"]) in [
        (a, k, str(t)) for a, k, t in audits(db_url, ctx["id"])
    ]


def test_replay_ingests_the_kept_request_once_unjudged(judging, judged, scripted, sql) -> None:
    ctx, entry = refused_write(judging, judged, scripted, retain_inputs=True)
    assert entry["retained"] is True
    judge_calls = len(scripted.requests_for("judge"))
    assert override_judgement(judging, ctx, entry["id"], "pass", replay=True)["replay"] == (
        "ingested"
    )
    assert len(scripted.requests_for("judge")) == judge_calls  # not judged again
    assert scripted.requests_for("row_judge") == []
    assert sql("SELECT count(*) FROM turn") == [(1,)]
    assert any("Acme" in b for (b,) in sql("SELECT body FROM memory_record"))
    again = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert again["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]


def test_replay_without_retain_inputs_is_not_retained(judging, judged, scripted) -> None:
    ctx, entry = refused_write(judging, judged, scripted)
    body = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert body["replay"] == "not_retained"


def test_replay_after_the_retention_period_is_not_retained(judging, judged, scripted, sql) -> None:
    ctx, entry = refused_write(judging, judged, scripted, retain_inputs=True)
    sql("UPDATE retained_input SET expires_at = now() - interval '1 second'")
    body = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert body["replay"] == "not_retained"


def test_row_gate_judgements_are_not_replayable(judging, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("pass"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: ("warn", "policy") for i in json.loads(r.user)})
    )
    facts(judging, ctx, FACTS)
    jid = judgements(judging, ctx, stage="row")[0]["id"]
    assert override_judgement(judging, ctx, jid, "pass", replay=True)["replay"] == "not_replayable"


def test_replay_runs_with_the_principals_current_grants_narrowed_by_the_key(
    judging, judged, scripted, sql
) -> None:
    ctx, entry = refused_write(judging, judged, scripted, retain_inputs=True)
    # The original key is revoked: it narrows the principal to nothing.
    judging.revoke(ctx)
    reviewer = judging.add_key(ctx.id, ["grant:manage"], subject="rita")
    with refused(403):
        override_judgement(judging, reviewer, entry["id"], "pass", replay=True)
    assert sql("SELECT count(*) FROM turn") == [(0,)]
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]
