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
