"""Dry runs: re-judge stored excerpts under a candidate addendum; store nothing."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import count, rows_reply, usage_rows, verdict

CANDIDATE = "Project code names like BLUEBIRD are not sensitive."


def seeded(judged, client, scripted, n_fail=2, **patch):
    ctx = judged(patch=patch or None)
    c = client(ctx["key"])
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: ("warn", "policy") for i in json.loads(r.user)})
    )
    for _ in range(n_fail):
        scripted.script("judge", verdict("fail", "policy"))
        c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "BLUEBIRD ships soon", "infer": "none"})
    scripted.script("judge", verdict("pass"))
    c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I'm Alice."})
    return ctx, c, f"/api/v1/{ctx['id']}/judgements/dry-run"


def snapshot(db_url):
    tables = ("judgement", "retained_input", "audit_event", "turn", "memory_record")
    return {t: count(db_url, f"SELECT count(*) FROM {t}") for t in tables}


def test_a_dry_run_reports_original_candidate_and_current_verdicts(
    judged, client, scripted, db_url
) -> None:
    ctx, c, url = seeded(
        judged, client, scripted, prompt_addendums={"judge": "Code names are secret."}
    )
    before = snapshot(db_url)
    usage_before = usage_rows(db_url, ctx["id"])

    def by_addendum(request):
        return verdict("pass") if CANDIDATE in request.system else verdict("fail", "policy")

    scripted.respond_with("judge", by_addendum)
    resp = c.post(url, json={"addendum": CANDIDATE, "compareCurrent": True})
    assert resp.status_code == 200, resp.text
    body = resp.json()
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


def test_a_dry_run_filters_by_verdict_and_takes_specific_ids(judged, client, scripted) -> None:
    ctx, c, url = seeded(judged, client, scripted, n_fail=1)
    scripted.respond_with("judge", verdict("warn", "policy"))
    body = c.post(url, json={"addendum": "", "verdict": "pass"}).json()
    assert [e["original"]["verdict"] for e in body["entries"] if "skipped" not in e] == ["pass"]
    entries = c.get(f"/api/v1/{ctx['id']}/judgements", params={"verdict": "fail"}).json()
    jid = entries["judgements"][0]["id"]
    body = c.post(url, json={"addendum": "", "judgementIds": [jid]}).json()
    assert [e["id"] for e in body["entries"]] == [jid]
    assert body["entries"][0]["candidate"]["verdict"] == "warn"


def test_without_a_judge_model_the_response_says_the_addendum_cannot_matter(
    judged, client, scripted, live
) -> None:
    _ctx, c, url = seeded(judged, client, scripted, n_fail=1)
    live.services.models.judge = None
    body = c.post(url, json={"addendum": CANDIDATE}).json()
    assert body["model"] is None and "detectors" in body["note"]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"addendum": "a" * 4000}, 200),
        ({"addendum": "a" * 4001}, 400),
        ({"addendum": "", "limit": 50}, 200),
        ({"addendum": "", "limit": 51}, 400),
        ({"addendum": "", "limit": 0}, 400),
        ({"addendum": "bad\x07char"}, 400),
        ({"addendum": "", "verdict": "deny"}, 400),
        ({}, 400),
        ({"addendum": "", "judgementIds": ["00000000-0000-4000-8000-000000000000"] * 51}, 400),
    ],
    ids=[
        "addendum_4000",
        "addendum_4001",
        "limit_50",
        "limit_51",
        "limit_0",
        "control_char",
        "deny",
        "missing_addendum",
        "ids_51",
    ],
)
def test_dry_run_limits_at_the_edge(judged, client, scripted, body, status) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("pass"))
    resp = client(ctx["key"]).post(f"/api/v1/{ctx['id']}/judgements/dry-run", json=body)
    assert resp.status_code == status, resp.text
