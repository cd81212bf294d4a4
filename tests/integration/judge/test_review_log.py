"""The review log over HTTP: its query parameters are checked. Order, filters, cursor and
grants are checked through the use cases in tests/service/judge/test_review_log.py."""

from __future__ import annotations

import pytest

from tests.integration.judge.helpers import PASS, rows_reply, verdict
from tests.support.scripted_model import Reply


def seed(judged, client, scripted):
    """Three input entries (pass, warn, fail) and row entries from one facts write each."""
    ctx = judged()
    c = client(ctx["key"])
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({"e0": "pass", "a0": "pass", "r0": "pass"})
    )
    for reply in (Reply.json(PASS), verdict("warn", "policy"), verdict("fail", "policy")):
        scripted.script("judge", reply)
        c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "hello there", "infer": "none"})
    return ctx, c


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"limit": 0}, 400),
        ({"limit": 1}, 200),
        ({"limit": 100}, 200),
        ({"limit": 101}, 400),
        ({"verdict": "deny"}, 400),
        ({"stage": "output"}, 400),
        ({"cursor": "nope"}, 400),
    ],
)
def test_list_parameters_are_checked(judged, client, params, status) -> None:
    ctx = judged()
    resp = client(ctx["key"]).get(f"/api/v1/{ctx['id']}/judgements", params=params)
    assert resp.status_code == status, resp.text
