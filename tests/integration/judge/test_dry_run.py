"""Dry runs over HTTP: the body's limits at the edge. What a dry run reports is checked
through the use case in tests/service/judge/test_dry_run.py."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import count, rows_reply, verdict

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
