"""Growing the cluster under load: a third worker is added and the shards rebalanced onto
it (`citus_rebalance_start`, shards moved by logical replication) while writes and reads
go on. Every request is answered (a 503 must carry Retry-After and is retried), no
acknowledged write is lost, and no read answers with another Context's rows or a wrong
value."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest

from tests.citus.cluster import CitusCluster
from tests.integration.review.helpers import SCOPE, create, post
from tests.support.live import LiveServer

CONTEXTS = 6
REBALANCE_LIMIT_S = 240.0


def _answered(send: Callable[[], httpx.Response], statuses: list[int]) -> httpx.Response:
    """Send until a final answer: a 503 is allowed only with Retry-After, and retried."""
    for _ in range(100):
        resp = send()
        statuses.append(resp.status_code)
        if resp.status_code != 503:
            return resp
        assert "retry-after" in resp.headers, resp.text
        time.sleep(float(resp.headers["retry-after"]))
    raise AssertionError("a request was refused 100 times")


def test_a_third_worker_takes_shards_while_writes_and_reads_go_on(
    live_with: Callable[..., LiveServer],
    make_context: Callable[..., dict[str, Any]],
    citus_cluster: CitusCluster,
    db_url: str,
) -> None:
    live = live_with(pool_max_size=10)
    database = str(psycopg.conninfo.conninfo_to_dict(db_url)["dbname"])
    contexts = [make_context(f"grow{i}", subject="alice") for i in range(CONTEXTS)]
    written: dict[str, dict[str, str]] = {c["id"]: {} for c in contexts}  # record -> text
    statuses: list[int] = []
    wrong: list[str] = []
    done = threading.Event()

    def writer(ctx: dict[str, Any]) -> None:
        with live.client(ctx["key"]) as c:
            n = 0
            while not done.is_set() or n < 3:
                text = f"Note {n} of {ctx['id']}: the code word is w{n}x{ctx['id'][-6:]}."
                body = {
                    "scope": dict(SCOPE),
                    "command": {"contract_version": 1, "op": "create", "content": text},
                }
                resp = _answered(
                    lambda body=body: c.post("/api/v1/memory/commands", json=body), statuses
                )
                assert resp.status_code in (200, 201), resp.text
                written[ctx["id"]][resp.json()["record_id"]] = text
                n += 1

    def reader(ctx: dict[str, Any]) -> None:
        with live.client(ctx["key"]) as c:
            while not done.is_set():
                resp = _answered(
                    lambda: c.get(f"/api/v1/{ctx['id']}/query", params={"query": "code word"}),
                    statuses,
                )
                assert resp.status_code == 200, resp.text
                for hit in resp.json()["hits"]:
                    if ctx["id"] not in hit["text"]:
                        wrong.append(hit["text"])
                known = dict(written[ctx["id"]])
                for rid, text in list(known.items())[-2:]:
                    got = _answered(lambda rid=rid: post(c, "read", record_id=rid), statuses)
                    assert got.status_code == 200, got.text
                    if got.json()["record"]["content"] != {"text": text}:
                        wrong.append(f"{rid}: {got.json()['record']['content']!r}")

    with live.client(contexts[0]["key"]) as c:
        create(c, f"Seed of {contexts[0]['id']}: the code word is seed.")
    new = citus_cluster.add_worker(database)
    with ThreadPoolExecutor(2 * CONTEXTS) as pool:
        jobs = [pool.submit(writer, ctx) for ctx in contexts]
        jobs += [pool.submit(reader, ctx) for ctx in contexts]
        try:
            time.sleep(2)  # load first, then move shards under it
            with citus_cluster.connect(database) as conn:
                conn.execute("SELECT citus_rebalance_start(shard_transfer_mode => 'force_logical')")
                deadline = time.monotonic() + REBALANCE_LIMIT_S
                while True:
                    (state,) = conn.execute(
                        "SELECT state::text FROM citus_rebalance_status() ORDER BY job_id DESC"
                        " LIMIT 1"
                    ).fetchone() or ("none",)
                    if state in ("finished", "failed", "cancelled"):
                        break
                    if time.monotonic() > deadline:
                        pytest.fail(f"the rebalance was still {state} after {REBALANCE_LIMIT_S} s")
                    time.sleep(1)
                assert state == "finished"
            time.sleep(2)  # writes and reads go on after the move too
        finally:
            done.set()
        for job in jobs:
            job.result()

    assert wrong == []
    assert sum(len(w) for w in written.values()) >= 3 * CONTEXTS
    assert set(statuses) <= {200, 201, 503}, sorted(set(statuses))
    with citus_cluster.connect(database) as conn:
        (moved,) = conn.execute(
            "SELECT count(*) FROM citus_shards WHERE nodeport = %s", (new.port,)
        ).fetchone() or (0,)
        assert moved > 0
        for ctx in contexts:
            ids = {
                str(r)
                for (r,) in conn.execute(
                    "SELECT id FROM memory_record WHERE context_id = %s", (ctx["id"],)
                )
            }
            assert set(written[ctx["id"]]) <= ids, ctx["id"]  # no acknowledged write lost
    for ctx in contexts:
        with live.client(ctx["key"]) as c:
            for rid, text in written[ctx["id"]].items():
                got = post(c, "read", record_id=rid)
                assert got.status_code == 200
                assert got.json()["record"]["content"] == {"text": text}
