"""Hygiene routes over real HTTP: scan as a job, run status, queue, resolve (with a race),
restore, challenge, grants and errors (issue 11, item 6)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from tests.integration.hygiene.conftest import SUPERSEDES_B, near_pair, scan
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer

COUNT_KEYS = {
    "subjects",
    "pairs_judged",
    "skipped_cross_project",
    "queued",
    "auto_resolved",
    "dismissed",
    "unrelated",
    "linked",
    "reexamined",
    "stopped_on_queue_cap",
}


def test_a_scan_runs_as_a_job_and_its_run_reports_exactly_the_counts(
    alice: httpx.Client, ctx: dict[str, Any], scripted: ScriptedModelServer
) -> None:
    near_pair(alice)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    run = scan(alice, ctx["id"])
    assert run["status"] == "done"
    assert set(run["counts"]) == COUNT_KEYS
    assert run["counts"]["queued"] == 1
    page = alice.get(f"/api/v1/{ctx['id']}/hygiene/queue", params={"status": "pending"}).json()
    assert page["next_cursor"] is None
    [item] = page["items"]
    for side in ("a", "b"):
        memory = item[side]
        assert {"id", "kind", "text", "scope", "revision", "provenance"} <= set(memory)
    assert item["verdict"] == "supersedes" and item["direction"] == "b_supersedes_a"
    assert item["judge_model"] == "openai:strong" and item["created_at"]


def test_the_queue_pages_with_next_cursor(
    alice: httpx.Client, ctx: dict[str, Any], scripted: ScriptedModelServer
) -> None:
    near_pair(alice)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(alice, ctx["id"])
    base = f"/api/v1/{ctx['id']}/hygiene"
    for n in range(2):
        challenged = alice.post(
            f"{base}/memories/{near_pair(alice)[0]}/challenge", json={"reason": f"wrong {n}"}
        )
        assert challenged.status_code == 200, challenged.text
    first = alice.get(f"{base}/queue", params={"limit": 2}).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    rest = alice.get(f"{base}/queue", params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert rest["next_cursor"] is None
    ids = [i["id"] for i in first["items"] + rest["items"]]
    assert len(ids) == len(set(ids)) == 3


def test_of_concurrent_resolves_exactly_one_wins_and_the_rest_are_409(
    live: LiveServer, alice: httpx.Client, ctx: dict[str, Any], scripted: ScriptedModelServer
) -> None:
    near_pair(alice)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(alice, ctx["id"])
    [item] = alice.get(f"/api/v1/{ctx['id']}/hygiene/queue").json()["items"]
    url = f"/api/v1/{ctx['id']}/hygiene/queue/{item['id']}/resolve"

    def decide(resolution: str) -> int:
        with live.client(ctx["key"]) as client:
            return client.post(url, json={"resolution": resolution}).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        statuses = list(pool.map(decide, ["keep_a", "keep_b", "keep_both"] * 2))
    assert sorted(statuses) == [200, 409, 409, 409, 409, 409]
    resolved = alice.get(f"/api/v1/{ctx['id']}/hygiene/queue", params={"status": "resolved"})
    assert len(resolved.json()["items"]) == 1


def test_bad_input_and_unknown_items_answer_clear_errors(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    base = f"/api/v1/{ctx['id']}/hygiene"
    unknown = "01a23017-b79f-7104-9bda-118e421542c7"
    bad = alice.post(f"{base}/queue/{unknown}/resolve", json={"resolution": "keep_all"})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "resolution"
    missing = alice.post(f"{base}/queue/{unknown}/resolve", json={"resolution": "keep_a"})
    assert missing.status_code == 404
    assert alice.get(f"{base}/runs/{unknown}").status_code == 404
    assert alice.post(f"{base}/memories/{unknown}/restore").status_code == 404
    status = alice.get(f"{base}/queue", params={"status": "everything"})
    assert status.status_code == 400 and status.json()["error"]["field"] == "status"
    a, _b = near_pair(alice)
    nothing = alice.post(f"{base}/memories/{a}/restore")
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "nothing_to_restore"
    empty = alice.post(f"{base}/memories/{a}/challenge", json={"reason": ""})
    assert empty.status_code == 400 and empty.json()["error"]["field"] == "reason"


def test_grants_queue_needs_review_and_challenge_needs_write_or_review(
    live: LiveServer,
    alice: httpx.Client,
    ctx: dict[str, Any],
    make_key,
) -> None:
    base = f"/api/v1/{ctx['id']}/hygiene"
    a, _b = near_pair(alice)
    reader = live.client(make_key(ctx["id"], ["memory_read"], subject="rita"))
    writer = live.client(make_key(ctx["id"], ["memory_read", "memory_write"], subject="wes"))
    with reader, writer:
        assert reader.get(f"{base}/queue").status_code == 403
        assert reader.post(f"{base}/scan", json={}).status_code == 403
        assert reader.post(f"{base}/memories/{a}/restore").status_code == 403
        refused = reader.post(f"{base}/memories/{a}/challenge", json={"reason": "no"})
        assert refused.status_code == 403
        assert writer.get(f"{base}/queue").status_code == 403
        ok = writer.post(f"{base}/memories/{a}/challenge", json={"reason": "out of date"})
        assert ok.status_code == 200 and ok.json()["created"] is True


def test_another_tenants_key_is_refused(
    live: LiveServer, alice: httpx.Client, ctx: dict[str, Any], make_context
) -> None:
    other = make_context("other", subject="mallory")
    with live.client(other["key"]) as mallory:
        assert mallory.get(f"/api/v1/{ctx['id']}/hygiene/queue").status_code == 403
        assert mallory.post(f"/api/v1/{ctx['id']}/hygiene/scan", json={}).status_code == 403


def test_the_hygiene_routes_are_in_the_openapi_document_with_their_errors(
    alice: httpx.Client,
) -> None:
    paths = alice.get("/openapi.json").json()["paths"]
    resolve = paths["/api/v1/{context_id}/hygiene/queue/{item_id}/resolve"]["post"]
    assert {"400", "403", "404", "409"} <= set(resolve["responses"])
    assert "202" in paths["/api/v1/{context_id}/hygiene/scan"]["post"]["responses"]
    for path in ("queue", "runs/{run_id}", "memories/{record_id}/challenge"):
        assert any(p.endswith(f"/hygiene/{path}") for p in paths)


def test_rejudge_takes_a_json_boolean_only(alice: httpx.Client, ctx: dict[str, Any]) -> None:
    for value in ("yes", "true", 1):
        bad = alice.post(f"/api/v1/{ctx['id']}/hygiene/scan", json={"rejudge": value})
        assert bad.status_code == 400, (value, bad.text)
        assert bad.json()["error"]["field"] == "rejudge"


def test_keep_a_toward_a_deleted_memory_answers_409_naming_why(
    alice: httpx.Client, ctx: dict[str, Any], scripted: ScriptedModelServer
) -> None:
    from tests.integration.review.helpers import command

    near_pair(alice)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(alice, ctx["id"])
    base = f"/api/v1/{ctx['id']}/hygiene"
    [item] = alice.get(f"{base}/queue").json()["items"]
    a = item["a"]
    deleted = command(alice, "delete", record_id=a["id"], expected_revision=a["revision"])
    assert deleted.status_code == 200, deleted.text
    refused = alice.post(f"{base}/queue/{item['id']}/resolve", json={"resolution": "keep_a"})
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "replacement_refused" and error["reason"] == "replacement_not_served"
    pending = alice.get(f"{base}/queue").json()["items"]
    assert [i["id"] for i in pending] == [item["id"]]
