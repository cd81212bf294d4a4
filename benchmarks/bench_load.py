"""Load: concurrent clients against real `memwarden serve` processes, over HTTP.

Two measurements, each on a fresh embedded PostgreSQL under a temp dir:

- `load`: for each client count, C concurrent keep-alive clients send a mix of `/query`
  (GET, hybrid) and `/facts` writes (`infer: none`) for D seconds to one API process
  (`--no-worker`). Reported: throughput, latency p50/p95/p99 of every answer and of the
  successful ones, the answers by status, how many refusals carried `Retry-After`, the
  slowest refusal, and the server's resident memory over time. Past its budgets a
  process is meant to refuse (503/429 + Retry-After) at once rather than queue.
- `processes`: write throughput (`/facts` turns/s and p95) with 1, 2, 4 API processes
  (`memwarden serve --workers N`) on the one PostgreSQL, to show where the limit is.

Run: `python benchmarks/bench_load.py [--clients 8,50,200] [--seconds 5]
[--processes 1,2,4] [--write-share 0.3] [--json]`. Clients run in this process
(asyncio + httpx), on the same machine as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import psutil
from _harness import STDERR, percentile
from _tables import table_console
from rich.table import Table

from memwarden.store.embedded import embedded_url, start_embedded
from memwarden.store.migrate import apply_migrations

ADMIN = "bench-admin-token-0123456789"
GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]
WORDS = ["jazz", "Oslo", "teacher", "Acme", "ramen", "chess", "budget", "roadmap", "tea"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    popen: subprocess.Popen[bytes]
    url: str
    log: Path

    def access_lines(self, skip: int = 0) -> list[dict[str, Any]]:
        """The server's access-log lines (one per request, with its own time in ms)."""
        lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()[skip:]
        out = []
        for raw in lines:
            try:
                line = json.loads(raw)
            except json.JSONDecodeError:
                continue
            if line.get("event") == "request":
                out.append(line)
        return out

    def log_length(self) -> int:
        return len(self.log.read_text(encoding="utf-8", errors="replace").splitlines())

    def rss_mb(self) -> float:
        try:
            root = psutil.Process(self.popen.pid)
            procs = [root, *root.children(recursive=True)]
            return sum(p.memory_info().rss for p in procs) / 1e6
        except psutil.Error:
            return float("nan")

    def stop(self) -> None:
        self.popen.terminate()
        try:
            self.popen.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


def serve(url: str, data: Path, processes: int, settings: dict[str, str]) -> Server:
    port = free_port()
    env = {
        **os.environ,
        "MEMWARDEN_DATABASE_URL": url,
        "MEMWARDEN_ADMIN_TOKEN": ADMIN,
        "MEMWARDEN_DATA_DIR": str(data),
        "MEMWARDEN_LOG_LEVEL": "INFO",  # the access log: each request's time in the server
        "MEMWARDEN_LOG_JSON": "true",
        **settings,
    }
    args = ["serve", "--no-worker", "--port", str(port), "--workers", str(processes)]
    log = data.parent / f"server-{port}.log"
    with log.open("wb") as handle:
        popen = subprocess.Popen(
            [sys.executable, "-m", "memwarden", *args], env=env, stdout=handle, stderr=handle
        )
    server = Server(popen, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            raise RuntimeError(f"server exited with {popen.returncode}")
        try:
            httpx.get(server.url + "/health", timeout=2)
            return server
        except httpx.TransportError:
            time.sleep(0.2)
    server.stop()
    raise RuntimeError("server did not start in 120 s")


def make_context(server: Server) -> tuple[str, str]:
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {ADMIN}"}) as c:
        cid = c.post("/api/v1/contexts", json={"name": "load"}).json()["id"]
        key = c.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": "bench", "grants": GRANTS}
        ).json()["key"]
    return cid, key


@dataclass
class Outcome:
    kind: str
    status: int
    ms: float
    retry_after: bool
    code: str = ""


@dataclass
class Run:
    clients: int
    seconds: float
    outcomes: list[Outcome] = field(default_factory=list)
    memory: list[tuple[float, float]] = field(default_factory=list)
    log_from: int = 0
    server_ms: dict[str, list[float]] = field(default_factory=dict)


async def drive(
    server: Server, cid: str, key: str, clients: int, seconds: float, write_share: float
) -> Run:
    run = Run(clients, seconds)
    run.log_from = server.log_length()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    headers = {"Authorization": f"Bearer {key}"}
    stop_at = time.monotonic() + seconds
    async with httpx.AsyncClient(
        base_url=server.url, headers=headers, limits=limits, timeout=60
    ) as http:

        async def client(n: int) -> None:
            i = 0
            while time.monotonic() < stop_at:
                i += 1
                write = (n * 7919 + i) % 100 < write_share * 100
                word = WORDS[(n + i) % len(WORDS)]
                started = time.perf_counter()
                resp = None
                try:
                    if write:
                        resp = await http.post(
                            f"/api/v1/{cid}/facts",
                            json={"text": f"Client {n} note {i}: I like {word}.", "infer": "none"},
                        )
                    else:
                        resp = await http.get(f"/api/v1/{cid}/query", params={"query": word})
                    status, retry = resp.status_code, "retry-after" in resp.headers
                    code = resp.json()["error"]["code"] if status >= 400 else ""
                except (httpx.HTTPError, ValueError, KeyError) as exc:
                    # Named by exception, so a reader can tell a dropped connection (status
                    # 0, RemoteProtocolError or ReadError) from an error body not ours.
                    status = resp.status_code if resp is not None else 0
                    retry, code = False, f"unreadable {type(exc).__name__}"
                ms = (time.perf_counter() - started) * 1000
                kind = "write" if write else "query"
                run.outcomes.append(Outcome(kind, status, ms, retry, code))
                if status in (429, 503):
                    await asyncio.sleep(0.05)  # a polite client backs off a little

        async def sample() -> None:
            t0 = time.monotonic()
            while time.monotonic() < stop_at:
                run.memory.append((time.monotonic() - t0, server.rss_mb()))
                await asyncio.sleep(1.0)

        await asyncio.gather(sample(), *(client(n) for n in range(clients)))
    for line in server.access_lines(run.log_from):
        run.server_ms.setdefault(str(line["status"]), []).append(float(line["ms"]))
    return run


def summarise(run: Run) -> dict[str, Any]:
    every = [o.ms for o in run.outcomes]
    ok = [o.ms for o in run.outcomes if 200 <= o.status < 300]
    refused = [o for o in run.outcomes if o.status in (429, 503)]
    statuses = Counter(f"{o.status} {o.code}".strip() for o in run.outcomes)
    mem = [m for _, m in run.memory]
    return {
        "clients": run.clients,
        "requests": len(every),
        "req_per_s": round(len(every) / run.seconds, 1),
        "ok_per_s": round(len(ok) / run.seconds, 1),
        "p50_ms": round(percentile(every, 50), 1),
        "p95_ms": round(percentile(every, 95), 1),
        "p99_ms": round(percentile(every, 99), 1),
        "ok_p95_ms": round(percentile(ok, 95), 1),
        "statuses": dict(sorted(statuses.items())),
        "refused_with_retry_after": sum(o.retry_after for o in refused),
        "refused": len(refused),
        "slowest_refusal_ms": round(max((o.ms for o in refused), default=0.0), 1),
        "refusal_p50_ms_by_code": {
            code: round(percentile([o.ms for o in refused if o.code == code], 50), 1)
            for code in sorted({o.code for o in refused})
        },
        "rss_mb": [round(m) for m in mem],
        # Time inside the server (its access log), by status: p50 / p95 ms.
        "server_ms_by_status": {
            status: [round(percentile(ms, 50), 1), round(percentile(ms, 95), 1)]
            for status, ms in sorted(run.server_ms.items())
        },
    }


async def writes_only(server: Server, cid: str, key: str, clients: int, seconds: float):
    run = await drive(server, cid, key, clients, seconds, write_share=1.0)
    done = [o.ms for o in run.outcomes if o.status == 201]
    return {
        "turns_per_s": round(len(done) / seconds, 1),
        "p95_ms": round(percentile(done, 95), 1),
        "errors": sum(1 for o in run.outcomes if o.status != 201),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default="8,50,200")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--write-share", type=float, default=0.3)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--write-clients", type=int, default=16)
    parser.add_argument("--seed-facts", type=int, default=40)
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        help="MEMWARDEN_X=value for the load server (budgets); repeat",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-load-"))
    workdir.chmod(0o755)
    pg = start_embedded(workdir / "pgdata")
    out: dict[str, Any] = {"load": [], "processes": []}
    try:
        url = embedded_url(pg)
        apply_migrations(url)
        budgets = dict(item.split("=", 1) for item in args.server_env)
        server = serve(url, workdir / "data", 1, budgets)
        try:
            cid, key = make_context(server)
            with httpx.Client(
                base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=60
            ) as c:
                for i in range(args.seed_facts):
                    c.post(
                        f"/api/v1/{cid}/facts", json={"text": f"Seed {i}: I like {WORDS[i % 9]}."}
                    )
            for clients in [int(x) for x in args.clients.split(",") if x]:
                STDERR.print(f"load: {clients} clients for {args.seconds} s")
                run = asyncio.run(drive(server, cid, key, clients, args.seconds, args.write_share))
                out["load"].append(summarise(run))
        finally:
            server.stop()
        for n in [int(x) for x in args.processes.split(",") if x]:
            STDERR.print(f"writes: {n} API process(es)")
            server = serve(url, workdir / "data", n, {})
            try:
                cid, key = make_context(server)
                result = asyncio.run(
                    writes_only(server, cid, key, args.write_clients, args.seconds)
                )
                out["processes"].append({"processes": n, **result})
            finally:
                server.stop()
    finally:
        pg.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    console = table_console()
    load = Table(
        "clients",
        "req/s",
        "2xx/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "2xx p95 ms",
        "statuses",
        "refused (Retry-After)",
        "slowest refusal ms",
        "RSS MB over time",
        "server ms p50/p95 by status",
    )
    for r in out["load"]:
        load.add_row(
            str(r["clients"]),
            str(r["req_per_s"]),
            str(r["ok_per_s"]),
            str(r["p50_ms"]),
            str(r["p95_ms"]),
            str(r["p99_ms"]),
            str(r["ok_p95_ms"]),
            " ".join(f"{k}:{v}" for k, v in r["statuses"].items()),
            f"{r['refused']} ({r['refused_with_retry_after']})",
            str(r["slowest_refusal_ms"]),
            " ".join(map(str, r["rss_mb"])),
            " ".join(f"{k}:{v[0]}/{v[1]}" for k, v in r["server_ms_by_status"].items()),
        )
    console.print(load)
    procs = Table("API processes", "turns/s", "p95 ms", "errors")
    for r in out["processes"]:
        procs.add_row(
            str(r["processes"]), str(r["turns_per_s"]), str(r["p95_ms"]), str(r["errors"])
        )
    console.print(procs)


if __name__ == "__main__":
    main()
