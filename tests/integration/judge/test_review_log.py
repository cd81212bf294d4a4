"""The review log over HTTP: newest first, filters, page cursor, limits, grant:manage."""

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


def test_entries_come_newest_first_with_a_page_cursor(judged, client, scripted) -> None:
    ctx, c = seed(judged, client, scripted)
    url = f"/api/v1/{ctx['id']}/judgements"
    first = c.get(url, params={"limit": 2}).json()
    assert [e["verdict"] for e in first["judgements"]] == ["fail", "warn"]
    second = c.get(url, params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [e["verdict"] for e in second["judgements"]] == ["pass"]
    assert second["next_cursor"] is None


def test_entries_filter_by_verdict_stage_and_held(judged, client, scripted) -> None:
    ctx, c = seed(judged, client, scripted)
    url = f"/api/v1/{ctx['id']}/judgements"
    assert [e["verdict"] for e in c.get(url, params={"verdict": "warn"}).json()["judgements"]] == [
        "warn"
    ]
    assert c.get(url, params={"stage": "row"}).json()["judgements"] == []
    assert len(c.get(url, params={"stage": "input"}).json()["judgements"]) == 3
    assert c.get(url, params={"held": "true"}).json()["judgements"] == []


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


def test_show_returns_one_entry_and_404_for_an_unknown_one(judged, client, scripted) -> None:
    ctx, c = seed(judged, client, scripted)
    url = f"/api/v1/{ctx['id']}/judgements"
    newest = c.get(url).json()["judgements"][0]
    shown = c.get(f"{url}/{newest['id']}").json()
    assert shown == newest
    assert set(shown) >= {"gate", "verdict", "reasons", "source", "scope", "excerpt", "held"}
    assert c.get(f"{url}/00000000-0000-4000-8000-000000000000").status_code == 404


def test_review_routes_need_grant_manage_over_the_whole_context(judged, client, make_key) -> None:
    ctx = judged()
    url = f"/api/v1/{ctx['id']}/judgements"
    reader = client(make_key(ctx["id"], ["memory_read", "memory_write", "memory_review"]))
    scoped = client(make_key(ctx["id"], ["grant:manage"], subject="sc", scope="project/p1"))
    assert reader.get(url).status_code == 403
    assert scoped.get(url).status_code == 403
