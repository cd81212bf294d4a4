"""Overrides: the reviewer's verdict beside the judge's, and the replay states."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import audits, rows_reply, verdict

FACTS = "I'm Alice. I work at Acme."


def refused(judged, client, scripted, **judge):
    ctx = judged(**judge)
    c = client(ctx["key"])
    scripted.script("judge", verdict("fail", "policy"))
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).status_code == 422
    (entry,) = c.get(f"/api/v1/{ctx['id']}/judgements").json()["judgements"]
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    return ctx, c, f"/api/v1/{ctx['id']}/judgements/{entry['id']}", entry


def test_an_override_records_the_reviewers_verdict_beside_the_judges(
    judged, client, scripted, db_url
) -> None:
    ctx, c, url, entry = refused(judged, client, scripted)
    resp = c.post(f"{url}/override", json={"verdict": "pass"})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["replay"] == "not_requested"
    shown = c.get(url).json()
    assert shown["verdict"] == "fail" and shown["override"]["verdict"] == "pass"
    assert shown["override"]["by"] == "alice" and shown["effective_verdict"] == "pass"
    assert ("judge.override", "judgement", entry["id"]) in [
        (a, k, str(t)) for a, k, t in audits(db_url, ctx["id"])
    ]


def test_replay_ingests_the_kept_request_once_unjudged(judged, client, scripted, sql) -> None:
    _ctx, c, url, entry = refused(judged, client, scripted, retain_inputs=True)
    assert entry["retained"] is True
    judge_calls = len(scripted.requests_for("judge"))
    resp = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.status_code == 200, resp.text
    assert resp.json()["replay"] == "ingested"
    assert len(scripted.requests_for("judge")) == judge_calls  # not judged again
    assert scripted.requests_for("row_judge") == []
    assert sql("SELECT count(*) FROM turn") == [(1,)]
    assert any("Acme" in b for (b,) in sql("SELECT body FROM memory_record"))
    again = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert again.json()["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]


def test_replay_without_retain_inputs_is_not_retained(judged, client, scripted) -> None:
    _ctx, c, url, _entry = refused(judged, client, scripted)
    resp = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.json()["replay"] == "not_retained"


def test_replay_after_the_retention_period_is_not_retained(judged, client, scripted, sql) -> None:
    _ctx, c, url, _entry = refused(judged, client, scripted, retain_inputs=True)
    sql("UPDATE retained_input SET expires_at = now() - interval '1 second'")
    resp = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.json()["replay"] == "not_retained"


def test_row_gate_judgements_are_not_replayable(judged, client, scripted) -> None:
    ctx = judged()
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("pass"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: ("warn", "policy") for i in json.loads(r.user)})
    )
    c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS})
    rows = c.get(f"/api/v1/{ctx['id']}/judgements", params={"stage": "row"}).json()
    jid = rows["judgements"][0]["id"]
    resp = c.post(
        f"/api/v1/{ctx['id']}/judgements/{jid}/override", json={"verdict": "pass", "replay": True}
    )
    assert resp.json()["replay"] == "not_replayable"


def test_replay_runs_with_the_principals_current_grants_narrowed_by_the_key(
    judged, client, scripted, sql, admin
) -> None:
    ctx, _c, url, _entry = refused(judged, client, scripted, retain_inputs=True)
    # The original key is revoked: it narrows the principal to nothing.
    admin.delete(f"/api/v1/contexts/{ctx['id']}/keys/{ctx['key_id']}")
    reviewer = client(
        admin.post(
            f"/api/v1/contexts/{ctx['id']}/keys",
            json={"subject": "rita", "grants": ["grant:manage"]},
        ).json()["key"]
    )
    resp = reviewer.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.status_code == 403
    assert sql("SELECT count(*) FROM turn") == [(0,)]
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]


@pytest.mark.parametrize(
    "body",
    [{"verdict": "deny"}, {"verdict": "fail", "replay": True}, {"verdict": "pass", "extra": 1}, {}],
)
def test_an_invalid_override_is_400(judged, client, scripted, body) -> None:
    _ctx, c, url, _entry = refused(judged, client, scripted)
    assert c.post(f"{url}/override", json=body).status_code == 400


@pytest.mark.parametrize("on_warn", ["write", "hold"])
def test_a_warned_write_that_went_ahead_is_never_replayed(
    judged, client, scripted, sql, on_warn
) -> None:
    """Written (or held) already: replay would ingest it a second time, so nothing is kept."""
    ctx = judged(retain_inputs=True, on_warn=on_warn)
    c = client(ctx["key"])
    scripted.script("judge", verdict("warn", "sensitive_inference"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).status_code == 201
    (entry,) = c.get(f"/api/v1/{ctx['id']}/judgements", params={"stage": "input"}).json()[
        "judgements"
    ]
    assert entry["verdict"] == "warn" and entry["retained"] is False
    url = f"/api/v1/{ctx['id']}/judgements/{entry['id']}"
    resp = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.status_code == 200, resp.text
    assert resp.json()["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]
    assert sql("SELECT count(*) FROM retained_input") == [(0,)]
