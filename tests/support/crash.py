"""Crash consistency: `memwarden serve` as a real process on its embedded PostgreSQL,
killed with SIGKILL during concurrent writes and document uploads, started again, and the
store checked against what the clients were told (issue 15, standing campaign).

Shared by tests/acceptance/test_crash_consistency.py (one or two rounds in CI) and
benchmarks/bench_crash.py (many rounds, with a table).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from memwarden.domain.reconcile_rules import SINGLE_VALUED_LABELS, is_multi_valued
from memwarden.store.embedded import embedded_url, import_pgserver
from tests.support.live import free_port

ADMIN = "crash-admin-token-0123456789"
GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]
CITIES = ["Oslo", "Lisbon", "Quito", "Hanoi", "Accra", "Lima", "Perth", "Riga"]


@dataclass
class Round:
    acknowledged_writes: int = 0
    acknowledged_documents: int = 0
    missing: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    unfinished_documents: list[str] = field(default_factory=list)
    restart_s: float = 0.0
    recovered_jobs: int = 0
    requeued_documents: int = 0
    settled_s: float = 0.0  # from the kill until every acknowledged document had finished

    @property
    def problems(self) -> list[str]:
        return [
            *self.missing,
            *self.partial,
            *self.orphans,
            *self.slots,
            *self.unfinished_documents,
        ]


class Serve:
    """One `memwarden serve` process on `data_dir` (the embedded PostgreSQL)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / "serve.log"
        self.log_from = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMWARDEN_")}
        env.update(MEMWARDEN_DATA_DIR=str(self.data_dir), MEMWARDEN_ADMIN_TOKEN=ADMIN)
        return env

    def start(self, timeout: float = 120) -> float:
        """Start and wait for /health to answer 200; returns the seconds that took."""
        started = time.monotonic()
        self.log_from = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "memwarden", "serve", "--port", str(self.port)],
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        while time.monotonic() - started < timeout:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited {self.proc.returncode}: {self.tail()}")
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return time.monotonic() - started
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"serve not healthy in {timeout} s: {self.tail()}")

    def recovery(self, timeout: float = 120) -> dict[str, Any]:
        """The `startup_recovery` report this start logged (jobs/recovery.py), once it has."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.log.open("rb") as log:
                log.seek(self.log_from)
                for raw in log.read().decode(errors="replace").splitlines():
                    if '"startup_recovery"' in raw:
                        report: dict[str, Any] = json.loads(raw)
                        return report
            time.sleep(0.2)
        raise AssertionError(f"no start-up recovery in {timeout} s: {self.tail()}")

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)

    def client(self, token: str = ADMIN) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=30
        )


def stop_database(data_dir: Path, timeout: float = 30) -> None:
    """Stop the embedded PostgreSQL of `data_dir` if it still runs (a killed `serve` leaves
    it; issue 15, finding 12): SIGTERM to the postmaster named in its pid file, a fast
    shutdown, then wait for it to go."""
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        os.kill(pid, signal.SIGINT)  # PostgreSQL's "fast" shutdown
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)


def database_url(data_dir: Path) -> tuple[Any, str]:
    """A handle on the running embedded server (released with `.cleanup()`) and its URL."""
    handle = import_pgserver().get_server(data_dir / "pgdata", cleanup_mode=None)
    return handle, embedded_url(handle)


def make_context(serve: Serve) -> tuple[str, str]:
    with serve.client() as admin:
        cid = admin.post("/api/v1/contexts", json={"name": "crash"}).json()["id"]
        issued = admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": GRANTS}
        )
        assert issued.status_code == 201, issued.text
        return cid, issued.json()["key"]


class Workload:
    """Writer threads posting /facts about one person (competing for the same single-valued
    slots) and an uploader posting text documents, until the server goes away; what the
    server acknowledged is kept."""

    def __init__(self, serve: Serve, cid: str, key: str, writers: int, seed: int) -> None:
        self.serve, self.cid, self.key = serve, cid, key
        self.turns: list[str] = []
        self.documents: list[str] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.rng = random.Random(seed)
        self.threads = [
            threading.Thread(target=self._write, args=(n,), daemon=True) for n in range(writers)
        ]
        self.threads.append(threading.Thread(target=self._upload, daemon=True))

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def join(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def _write(self, n: int) -> None:
        count = 0
        with self.serve.client(self.key) as client:
            while not self.stop.is_set():
                count += 1
                city = CITIES[(n + count) % len(CITIES)]
                text = (
                    f"I live in {city}. My favourite colour is shade{n}x{count}. Note {n}-{count}."
                )
                try:
                    resp = client.post(f"/api/v1/{self.cid}/facts", json={"text": text})
                except httpx.HTTPError:
                    return  # the server is gone: nothing more is acknowledged
                if resp.status_code == 201:
                    with self.lock:
                        self.turns.append(resp.json()["turnId"])

    def _upload(self) -> None:
        count = 0
        with self.serve.client(self.key) as client:
            while not self.stop.is_set():
                count += 1
                body = (
                    f"Document {count}. Marguerite keeps bees on roof {count}.\n\n" * 40
                ).encode()
                files = {"file": (f"doc{count}.txt", body, "text/plain")}
                try:
                    resp = client.post(f"/api/v1/{self.cid}/documents", files=files)
                except httpx.HTTPError:
                    return
                if resp.status_code == 202:
                    with self.lock:
                        self.documents.append(resp.json()["id"])
                time.sleep(0.05)


def crash_round(
    data_dir: Path,
    *,
    writers: int = 4,
    warm_writes: int = 3,
    run_s: tuple[float, float] = (0.2, 1.5),
    seed: int = 0,
) -> Round:
    """Start (or restart) serve, load it, SIGKILL it mid-flight, start it again, check.

    The kill comes a random `run_s` after the first `warm_writes` acknowledged writes (the
    first write loads the local embedder), so writes and uploads are in flight."""
    serve = Serve(data_dir)
    serve.start()
    cid, key = make_context(serve)
    load = Workload(serve, cid, key, writers, seed)
    load.start()
    warm_until = time.monotonic() + 120
    while len(load.turns) < warm_writes and time.monotonic() < warm_until:
        time.sleep(0.05)
    time.sleep(random.Random(seed).uniform(*run_s))
    serve.kill()
    killed_at = time.monotonic()
    load.join()
    result = Round(len(load.turns), len(load.documents))
    try:
        result.restart_s = serve.start()
        handle, url = database_url(data_dir)
        try:
            # The restarted server takes back what the killed one held by itself.
            report = serve.recovery()
            result.recovered_jobs, result.requeued_documents = report["jobs"], report["documents"]
            _check(url, cid, load, result)
            _wait_documents(url, cid, load.documents, result)
            result.settled_s = time.monotonic() - killed_at
        finally:
            handle.cleanup()
    finally:
        serve.stop()
    return result


def _rows(conn: psycopg.Connection, query: str, *params: Any) -> list[tuple]:
    return conn.execute(query, params).fetchall()


def _check(url: str, cid: str, load: Workload, result: Round) -> None:
    with psycopg.connect(url) as conn:
        turns = {str(r[0]) for r in _rows(conn, "SELECT id FROM turn WHERE context_id = %s", cid)}
        result.missing += [f"acknowledged turn {t} missing" for t in load.turns if t not in turns]
        documents = {
            str(r[0]) for r in _rows(conn, "SELECT id FROM document WHERE context_id = %s", cid)
        }
        result.missing += [
            f"acknowledged document {d} missing" for d in load.documents if d not in documents
        ]
        for (turn_id,) in _rows(
            conn,
            "SELECT t.id FROM turn t WHERE t.context_id = %s AND NOT EXISTS "
            "(SELECT 1 FROM chunk c WHERE c.context_id = t.context_id AND c.turn_id = t.id)",
            cid,
        ):
            result.partial.append(f"turn {turn_id} has no chunk")
        for record_id, revision, have in _rows(
            conn,
            "SELECT r.id, r.revision, count(v.revision) FROM memory_record r "
            "LEFT JOIN memory_revision v ON v.context_id = r.context_id AND v.record_id = r.id "
            "WHERE r.context_id = %s GROUP BY r.id, r.revision "
            "HAVING count(v.revision) <> r.revision",
            cid,
        ):
            result.partial.append(f"record {record_id} at revision {revision} has {have} revisions")
        orphan_queries = {
            "chunk without its turn": "SELECT c.id FROM chunk c WHERE c.context_id = %s AND "
            "c.turn_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM turn t WHERE "
            "t.context_id = c.context_id AND t.id = c.turn_id)",
            "chunk without its document": "SELECT c.id FROM chunk c WHERE c.context_id = %s AND "
            "c.document_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM document d WHERE "
            "d.context_id = c.context_id AND d.id = c.document_id)",
            "record without its source": "SELECT r.id FROM memory_record r WHERE "
            "r.context_id = %s AND ((r.source_kind = 'turn' AND NOT EXISTS (SELECT 1 FROM turn t "
            "WHERE t.context_id = r.context_id AND t.id = r.source_ref)) OR (r.source_kind = "
            "'document' AND NOT EXISTS (SELECT 1 FROM document d WHERE d.context_id = "
            "r.context_id AND d.id = r.source_ref)))",
            "record without its entity": "SELECT r.id FROM memory_record r WHERE "
            "r.context_id = %s AND r.entity_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
            "memory_record e WHERE e.context_id = r.context_id AND e.id = r.entity_id)",
        }
        for what, query in orphan_queries.items():
            result.orphans += [f"{what}: {row[0]}" for row in _rows(conn, query, cid)]
        live = _rows(
            conn,
            "SELECT kind, entity_id, attr_key, scope_path, visibility, owner_subject, count(*) "
            "FROM memory_record WHERE context_id = %s AND kind IN ('attribute', 'relation') "
            "AND serving = 'live' AND superseded_by IS NULL AND deleted_at IS NULL "
            "AND (valid_to IS NULL OR valid_to > now()) "
            "GROUP BY 1, 2, 3, 4, 5, 6 HAVING count(*) > 1",
            cid,
        )
        for kind, entity_id, key, *_, n in live:
            single = key in SINGLE_VALUED_LABELS if kind == "relation" else not is_multi_valued(key)
            if single:
                result.slots.append(f"{n} live values for {kind} {key} of {entity_id}")


def _wait_documents(
    url: str, cid: str, documents: list[str], result: Round, timeout: float = 90
) -> None:
    deadline = time.monotonic() + timeout
    pending: list[tuple] = []
    while time.monotonic() < deadline:
        with psycopg.connect(url) as conn:
            pending = _rows(
                conn,
                "SELECT id, status FROM document WHERE context_id = %s "
                "AND status NOT IN ('processed', 'failed')",
                cid,
            )
        if not pending:
            return
        time.sleep(0.5)
    result.unfinished_documents += [f"document {d} still {s}" for d, s in pending]


def run_rounds(workdir: Path, rounds: int, **kwargs: Any) -> list[Round]:
    """`rounds` crash rounds on one data directory (each round its own Context)."""
    data_dir = workdir / "data"
    out = []
    try:
        for n in range(rounds):
            out.append(crash_round(data_dir, seed=n, **kwargs))
    finally:
        stop_database(data_dir)
    return out
