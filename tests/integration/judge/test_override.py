"""Overrides over HTTP: an invalid body is 400. What an override and its replay do is
checked through the use case in tests/service/judge/test_override.py."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import rows_reply, verdict

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
    """Written (or held) already: its request is kept (retain_inputs covers a warn), but a
    replay would ingest it a second time, so none is made."""
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
    assert entry["verdict"] == "warn" and entry["retained"] is True
    url = f"/api/v1/{ctx['id']}/judgements/{entry['id']}"
    resp = c.post(f"{url}/override", json={"verdict": "pass", "replay": True})
    assert resp.status_code == 200, resp.text
    assert resp.json()["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]
