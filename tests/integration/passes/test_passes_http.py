"""POST /passes/{stage}/run and GET /passes/runs/{id} over HTTP, runs executed by a real
worker, and the settle trigger firing on that worker by itself."""

from __future__ import annotations

import time

import httpx

SESSION = "My name is Alice. I work at Acme as a data engineer. I like hiking on weekends."


def _wait(client: httpx.Client, cid: str, run_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    body: dict = {}
    while time.monotonic() < deadline:
        body = client.get(f"/api/v1/{cid}/passes/runs/{run_id}").json()
        if body.get("status") in ("done", "failed"):
            return body
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} still {body.get('status')} after {timeout} s")


def test_a_pass_run_by_hand_answers_202_and_the_worker_finishes_it(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as c:
        assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": SESSION}).status_code == 201
        started = c.post(f"/api/v1/{ctx['id']}/passes/rollup/run")
        assert started.status_code == 202, started.text
        run = _wait(c, ctx["id"], started.json()["runId"])
    assert run["status"] == "done" and run["trigger"] == "manual"
    assert set(run["counts"]) == {"inputs", "written", "dropped", "held"}
    assert run["counts"]["written"] >= 1


def test_an_unknown_pass_is_404_a_switched_off_one_409_and_a_reader_403(
    live, make_context, make_key
) -> None:
    ctx = make_context()
    reader = make_key(ctx["id"], ["memory_read"])
    base = f"/api/v1/{ctx['id']}/passes"
    with live.client(ctx["key"]) as c:
        unknown = c.post(f"{base}/summarise/run")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_pass"
        off = c.post(f"{base}/elaboration/run")
        assert off.status_code == 409 and off.json()["error"]["code"] == "pass_disabled"
        missing = c.get(f"{base}/runs/01a2300f-ed09-7013-9ae1-fd20ca79b50e")
        assert missing.status_code == 404
    with live.client(reader) as r:
        assert r.post(f"{base}/rollup/run").status_code == 403


def test_the_settle_trigger_fires_on_a_real_worker(live, make_context, admin, sql) -> None:
    ctx = make_context()
    cid = ctx["id"]
    patch = {"passes": {"rollup_idle_minutes": 0, "settle_minutes": 1}}
    assert admin.patch(f"/api/v1/contexts/{cid}/config", json=patch).status_code == 200
    with live.client(ctx["key"]) as c:
        assert c.post(f"/api/v1/{cid}/facts", json={"text": SESSION}).status_code == 201
    # The writes settled a while ago: the worker's every-minute trigger sees a quiet feed.
    sql("UPDATE change_event SET created_at = now() - interval '10 minutes'")
    sql("UPDATE turn SET created_at = now() - interval '10 minutes'")
    sql("UPDATE procrastinate_periodic_defers SET defer_timestamp = 0")
    deadline = time.monotonic() + 90
    rows: list = []
    while time.monotonic() < deadline:
        rows = sql(
            "SELECT stage, status FROM pass_run WHERE context_id = %s AND trigger = 'settled'",
            (cid,),
        )
        if rows and all(s == "done" for _st, s in rows):
            break
        time.sleep(0.5)
    assert {st for st, s in rows if s == "done"} >= {"rollup", "gist", "consolidation"}
    summaries = sql(
        "SELECT count(*) FROM memory_record WHERE context_id = %s AND source_kind = 'rollup'",
        (cid,),
    )
    assert summaries[0][0] >= 1
