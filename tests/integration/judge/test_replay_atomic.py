"""A replay and the consuming of its kept request commit together: a failure after the
ingest undoes both, and the request can still be replayed exactly once."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import rows_reply, verdict

FACTS = "I'm Alice. I work at Acme."

# Real database failures at the two steps after the ingest: consuming the kept request,
# and recording the override on the judgement.
FAILURES = {
    "consume": "retained_input",
    "override": "judgement",
}


def refused_and_kept(judged, client, scripted):
    ctx = judged(retain_inputs=True)
    c = client(ctx["key"])
    scripted.script("judge", verdict("fail", "policy"))
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).status_code == 422
    (entry,) = c.get(f"/api/v1/{ctx['id']}/judgements").json()["judgements"]
    assert entry["retained"] is True
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    return ctx, c, f"/api/v1/{ctx['id']}/judgements/{entry['id']}"


@pytest.mark.parametrize("step", sorted(FAILURES))
def test_a_failure_after_the_ingest_undoes_it_and_the_request_stays_replayable(
    judged, client, scripted, sql, step
) -> None:
    ctx, c, url = refused_and_kept(judged, client, scripted)
    table = FAILURES[step]
    sql(
        "CREATE FUNCTION fail_step() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$"
    )
    sql(
        f"CREATE TRIGGER fail_step BEFORE UPDATE ON {table}"
        " FOR EACH ROW EXECUTE FUNCTION fail_step()"
    )
    resp = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.status_code == 500
    assert sql("SELECT count(*) FROM turn") == [(0,)]
    assert sql("SELECT count(*) FROM memory_record") == [(0,)]
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]
    assert sql("SELECT override_verdict FROM judgement") == [(None,)]
    sql(f"DROP TRIGGER fail_step ON {table}")
    c = client(ctx["key"])  # a fresh connection: the server may close the one that got 500
    again = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert again.status_code == 200, again.text
    assert again.json()["replay"] == "ingested"
    assert sql("SELECT count(*) FROM turn") == [(1,)]
    third = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert third.json()["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]
