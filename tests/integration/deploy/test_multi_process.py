"""The concurrency promises hold across processes: two API processes and two job workers
on one PostgreSQL (tests/integration/deploy/conftest.py). Requests are spread over both
API processes and released together, so the processes really compete."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from threading import Barrier
from typing import Any

import httpx
import psycopg

from memwarden.store.migrate import available
from tests.integration.deploy.conftest import ADMIN_TOKEN, Deployment
from tests.support.replies import rows_reply, verdict

GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]
SCOPE = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "shared"}


def context(deployment: Deployment, patch: dict[str, Any] | None = None) -> dict[str, str]:
    with deployment.client(0) as admin:
        cid = admin.post("/api/v1/contexts", json={"name": "deployed"}).json()["id"]
        if patch:
            assert admin.patch(f"/api/v1/contexts/{cid}/config", json=patch).status_code == 200
        issued = admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": GRANTS}
        ).json()
    return {"id": cid, "key": issued["key"]}


def race(deployment: Deployment, key: str, n: int, send: Callable[[httpx.Client, int], Any]):
    """n requests, alternately to each API process, released together."""
    barrier = Barrier(n)

    def attempt(i: int) -> Any:
        with deployment.client(i, key) as client:
            barrier.wait()
            return send(client, i)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(attempt, range(n)))


def one(db_url: str, query: str, *params: Any) -> Any:
    with psycopg.connect(db_url) as conn:
        row = conn.execute(query, params).fetchone()
    assert row is not None
    return row[0] if len(row) == 1 else row


def test_processes_started_together_apply_each_migration_once(deployment: Deployment) -> None:
    applied = [
        name
        for process in deployment.processes
        for line in process.lines()
        if str(line.get("event", "")).startswith("migrations applied: ")
        for name in line["event"].removeprefix("migrations applied: ").split()
        if name != "none"
    ]
    expected = sorted(m.name for m in available())
    assert sorted(applied) == expected  # each file by exactly one of the four processes
    assert one(deployment.db_url, "SELECT count(*) FROM schema_migration") == len(expected)
    assert all(p.popen.poll() is None for p in deployment.processes)


def test_competing_review_decisions_across_processes_have_one_winner(
    deployment: Deployment,
) -> None:
    ctx = context(deployment)
    with deployment.client(0, ctx["key"]) as alice:
        body = {
            "scope": SCOPE,
            "command": {"contract_version": 1, "op": "create", "content": "contested"},
        }
        created = alice.post("/api/v1/memory/commands", json=body).json()

    def decide(client: httpx.Client, i: int) -> int:
        command = {
            "contract_version": 1,
            "record_id": created["record_id"],
            "expected_revision": created["revision"],
            "disposition": ("approved", "rejected")[i % 2],
            "evidence_ref": "case://deploy/1",
        }
        resp = client.post("/api/v1/memory/reviews", json={"scope": SCOPE, "command": command})
        return resp.status_code

    codes = race(deployment, ctx["key"], 12, decide)
    assert sorted(codes) == [200] + [409] * 11
    kinds = one(
        deployment.db_url,
        "SELECT array_agg(entry_type ORDER BY seq) FROM change_event WHERE context_id = %s",
        ctx["id"],
    )
    assert kinds == ["created", "reviewed"]


def test_competing_hold_approvals_across_processes_have_one_winner(
    deployment: Deployment,
) -> None:
    scripted = deployment.scripted
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    ctx = context(deployment, {"judge": {"enabled": True, "on_warn": "hold"}})
    with deployment.client(1, ctx["key"]) as alice:
        held = alice.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I'm Bob.", "infer": "none"})
        assert held.status_code == 201 and held.json()["held"] is True, held.text
        (judgement,) = alice.get(f"/api/v1/{ctx['id']}/judgements", params={"held": "true"}).json()[
            "judgements"
        ]

    def approve(client: httpx.Client, i: int) -> int:
        verb = ("approve", "reject")[i % 2]
        return client.post(f"/api/v1/{ctx['id']}/judgements/{judgement['id']}/{verb}").status_code

    codes = race(deployment, ctx["key"], 12, approve)
    assert sorted(codes) == [200] + [409] * 11
    decided = one(
        deployment.db_url,
        "SELECT count(*) FROM audit_event WHERE context_id = %s AND target_id = %s"
        " AND action IN ('judge.approve', 'judge.reject')",
        ctx["id"],
        judgement["id"],
    )
    assert decided == 1


def test_concurrent_writes_to_both_processes_are_neither_lost_nor_doubled(
    deployment: Deployment,
) -> None:
    ctx = context(deployment)

    def write(client: httpx.Client, i: int) -> tuple[int, int]:
        fact = client.post(
            f"/api/v1/{ctx['id']}/facts", json={"text": f"Note {i}: item {i}.", "infer": "none"}
        )
        body = {
            "scope": SCOPE,
            "command": {"contract_version": 1, "op": "create", "content": f"memory {i}"},
        }
        created = client.post("/api/v1/memory/commands", json=body)
        return fact.status_code, created.status_code

    results = race(deployment, ctx["key"], 16, write)
    assert set(results) == {(201, 200)}
    db = deployment.db_url
    turns = one(
        db, "SELECT count(*), count(DISTINCT text) FROM turn WHERE context_id = %s", ctx["id"]
    )
    assert turns == (16, 16)
    feed = one(
        db,
        "SELECT count(*), count(DISTINCT record_id) FROM change_event"
        " WHERE context_id = %s AND entry_type = 'created' AND kind <> 'turn'",
        ctx["id"],
    )
    count, records = feed
    assert count >= 16 and records == count  # one entry per record, none twice
    every = one(
        db,
        "SELECT count(*), min(seq), max(seq) FROM change_event WHERE context_id = %s",
        ctx["id"],
    )
    assert every[1] == 1 and every[2] == every[0]  # the feed's sequence has no gap


def test_each_document_job_runs_once_on_one_of_the_workers(deployment: Deployment) -> None:
    ctx = context(deployment)
    ids: list[str] = []
    for i in range(6):
        with deployment.client(i, ctx["key"]) as client:
            resp = client.post(
                f"/api/v1/{ctx['id']}/documents",
                files={
                    "file": (f"doc{i}.txt", f"Document {i} says item {i}.".encode(), "text/plain")
                },
            )
            assert resp.status_code in (201, 202), resp.text
            ids.append(resp.json()["id"])
    deadline = time.monotonic() + 60
    with deployment.client(0, ctx["key"]) as client:
        for doc_id in ids:
            while True:
                status = client.get(f"/api/v1/{ctx['id']}/documents/{doc_id}").json()["status"]
                if status in ("processed", "failed"):
                    assert status == "processed"
                    break
                assert time.monotonic() < deadline, f"document {doc_id} still {status}"
                time.sleep(0.1)
    db = deployment.db_url
    for doc_id in ids:
        jobs = one(
            db,
            "SELECT count(*), sum(attempts), bool_and(status = 'succeeded')"
            " FROM procrastinate_jobs WHERE args->>'document_id' = %s",
            doc_id,
        )
        assert jobs == (1, 1, True)  # one job, fetched by one worker once, succeeded
        processed = one(
            db,
            "SELECT count(*) FROM audit_event"
            " WHERE target_id = %s AND action = 'document.processed'",
            doc_id,
        )
        assert processed == 1
    ran_on = one(
        db,
        "SELECT count(DISTINCT worker_id) FROM procrastinate_jobs WHERE args->>'context_id' = %s",
        ctx["id"],
    )
    assert ran_on >= 1


def test_serve_with_workers_runs_that_many_api_processes_on_one_port(
    deployment: Deployment,
) -> None:
    served = deployment.apis[0]  # `serve --workers 2`
    children = Path(f"/proc/{served.popen.pid}/task/{served.popen.pid}/children")
    if children.exists():  # Linux: uvicorn's supervisor and its two API processes
        assert len(children.read_text().split()) >= 2
    ctx = context(deployment)
    with deployment.client(0, ctx["key"]) as client:
        for i in range(4):
            resp = client.post(
                f"/api/v1/{ctx['id']}/facts", json={"text": f"Fact {i}.", "infer": "none"}
            )
            assert resp.status_code == 201, resp.text


__all__ = ["ADMIN_TOKEN"]
