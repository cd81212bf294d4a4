"""Dry runs through the use case: re-judge stored excerpts under a candidate addendum;
store nothing."""

from __future__ import annotations

import json
import uuid

from tests.integration.judge.helpers import count, usage_rows
from tests.service.usecases import dry_run, facts, judgements, refused
from tests.support.replies import rows_reply, verdict

CANDIDATE = "Project code names like BLUEBIRD are not sensitive."


def seeded(judging, judged, scripted, n_fail=2, **patch):
    ctx = judged(patch=patch or None)
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: ("warn", "policy") for i in json.loads(r.user)})
    )
    for _ in range(n_fail):
        scripted.script("judge", verdict("fail", "policy"))
        with refused(422):
            facts(judging, ctx, "BLUEBIRD ships soon", infer="none")
    scripted.script("judge", verdict("pass"))
    facts(judging, ctx, "I'm Alice.")
    return ctx


def snapshot(db_url):
    tables = ("judgement", "retained_input", "audit_event", "turn", "memory_record")
    return {t: count(db_url, f"SELECT count(*) FROM {t}") for t in tables}


def test_a_dry_run_reports_original_candidate_and_current_verdicts(
    judging, judged, scripted, db_url
) -> None:
    ctx = seeded(judging, judged, scripted, prompt_addendums={"judge": "Code names are secret."})
    before = snapshot(db_url)
    usage_before = usage_rows(db_url, ctx["id"])

    def by_addendum(request):
        return verdict("pass") if CANDIDATE in request.system else verdict("fail", "policy")

    scripted.respond_with("judge", by_addendum)
    body = dry_run(judging, ctx, CANDIDATE, compare_current=True)
    tested = [e for e in body["entries"] if "skipped" not in e]
    assert len(tested) == 2 and body["tested"] == 2 and body["changed"] == 2
    assert all(e["original"]["verdict"] == "fail" for e in tested)
    assert all(e["candidate"]["verdict"] == "pass" for e in tested)
    assert all(e["current"]["verdict"] == "fail" for e in tested)
    assert body["matrix"] == {"fail": {"pass": 2}}
    skipped = [e for e in body["entries"] if e.get("skipped") == "row_gate"]
    assert skipped and body["skipped"] == len(skipped)
    assert snapshot(db_url) == before  # stores and changes nothing ...
    assert usage_rows(db_url, ctx["id"]) != usage_before  # ... except usage


def test_a_dry_run_filters_by_verdict_and_takes_specific_ids(judging, judged, scripted) -> None:
    ctx = seeded(judging, judged, scripted, n_fail=1)
    scripted.respond_with("judge", verdict("warn", "policy"))
    body = dry_run(judging, ctx, "", verdict="pass")
    assert [e["original"]["verdict"] for e in body["entries"] if "skipped" not in e] == ["pass"]
    jid = judgements(judging, ctx, verdict="fail")[0]["id"]
    body = dry_run(judging, ctx, "", judgement_ids=[uuid.UUID(jid)])
    assert [e["id"] for e in body["entries"]] == [jid]
    assert body["entries"][0]["candidate"]["verdict"] == "warn"


def test_without_a_judge_model_the_response_says_the_addendum_cannot_matter(
    judging, judged, scripted
) -> None:
    ctx = seeded(judging, judged, scripted, n_fail=1)
    judging.services.models.judge = None
    body = dry_run(judging, ctx, CANDIDATE)
    assert body["model"] is None and "detectors" in body["note"]
