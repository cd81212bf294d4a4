"""Benchmark the cost of the largest request the limits allow: one /facts and one
/facts/batch, offline (rule extractor, local embedder), each in a fresh process so its
peak RSS is its own.

For each size it reports wall time, peak RSS, the RSS left after the request (what the
process keeps), the chunks embedded and the time spent in embedding and extraction.
Run: `python benchmarks/bench_largest_request.py [--sizes 16000,65536,128000] [--json]`
(`--profile` prints the 25 most expensive functions of one /facts of the first size).

`--uploads N` measures instead N concurrent uploads of the largest document the limits
allow (25 MiB) to one Context of a real `memwarden serve --no-worker` over HTTP, once
with the Context size budgets off and once at their defaults: the server's peak RSS
(sampled every 5 ms, and the kernel's high-water mark), and the answers by status.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import pstats
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import psutil
from _harness import STDERR, make_caller, peak_rss_mb, services
from _tables import table_console
from rich.table import Table

from memwarden import embedding
from memwarden.limits import MAX_BATCH_CHARS, MAX_TURN_CHARS
from memwarden.pipeline import ingest
from memwarden.pipeline.batch import MAX_BATCH
from memwarden.pipeline.contract import BatchBody, FactsBody

WORDS = [
    "the",
    "team",
    "met",
    "in",
    "Oslo",
    "on",
    "Monday",
    "to",
    "review",
    "the",
    "budget",
    "and",
    "the",
    "roadmap",
    "for",
    "the",
    "next",
    "quarter",
    "while",
    "Alice",
    "who",
    "works",
    "as",
    "an",
    "engineer",
    "at",
    "Acme",
    "said",
    "she",
    "prefers",
    "tea",
    "to",
    "coffee",
]


def text_of(chars: int, seed: int = 7) -> str:
    """Prose-like text of exactly `chars` ASCII characters (sentences, paragraphs)."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < chars:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
        piece = sentence.capitalize() + (". " if rng.random() > 0.1 else ".\n\n")
        out.append(piece)
        size += len(piece)
    return "".join(out)[:chars]


class Timed:
    """Wraps an async function and sums its time."""

    def __init__(self, target: Any, name: str) -> None:
        self.target, self.name = target, name
        self.inner = getattr(target, name)
        self.seconds = 0.0
        self.calls = 0

    def __enter__(self) -> Timed:
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await self.inner(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
                self.calls += 1

        setattr(self.target, self.name, wrapped)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(self.target, self.name, self.inner)


async def one(kind: str, chars: int, items: int, profile: bool) -> dict[str, Any]:
    async with services() as svc:
        caller = await make_caller(svc, "largest")
        assert caller.context_id is not None
        await ingest.write_facts(svc, caller, caller.context_id, ingest.FactsInput("warm up"))
        gc.collect()
        rss_before = psutil.Process().memory_info().rss / 2**20
        with (
            Timed(embedding, "embed_texts") as embed_timer,
            Timed(ingest, "extract_turn") as extract_timer,
        ):
            # modules that imported the names keep their own reference: patch theirs too
            from memwarden.pipeline import commit

            commit_embed = Timed(commit, "embed_texts")
            with commit_embed:
                started = time.perf_counter()
                profiler = cProfile.Profile() if profile else None
                if profiler:
                    profiler.enable()
                if kind == "facts":
                    body = FactsBody(text=text_of(chars))
                    await ingest.write_facts(svc, caller, caller.context_id, body.to_input())
                else:
                    from memwarden.pipeline.batch import write_batch

                    batch = BatchBody(
                        items=[FactsBody(text=text_of(chars, seed=n)) for n in range(items)]
                    )
                    await write_batch(
                        svc, caller, caller.context_id, [i.to_input() for i in batch.items]
                    )
                wall = time.perf_counter() - started
                if profiler:
                    profiler.disable()
                    pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(
                        25
                    )
        gc.collect()
        async with svc.db.connection() as conn:
            cur = await conn.execute("SELECT count(*) AS n FROM memory_record")
            row = await cur.fetchone()
        return {
            "kind": kind,
            "items": items if kind == "batch" else 1,
            "chars_per_item": chars,
            "wall_s": round(wall, 2),
            "embed_s": round(embed_timer.seconds + commit_embed.seconds, 2),
            "extract_s": round(extract_timer.seconds, 2),
            "memory_records": row["n"] if row else 0,
            "rss_before_mb": round(rss_before, 1),
            "peak_rss_mb": round(peak_rss_mb(), 1),
            "rss_after_mb": round(psutil.Process().memory_info().rss / 2**20, 1),
        }


def cases(sizes: list[int]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = [("facts", size, 1) for size in sizes]
    # the largest batch: MAX_BATCH items sharing the batch's characters
    out.append(("batch", MAX_BATCH_CHARS // MAX_BATCH, MAX_BATCH))
    return out


def _hwm_mb(pid: int) -> float:
    """The kernel's peak resident set of a process (Linux VmHWM), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / 1e6
    except OSError:
        pass
    return float("nan")


async def _upload_all(url: str, cid: str, key: str, data: bytes, n: int) -> list[int]:
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(
        base_url=url, headers=headers, limits=limits, timeout=600
    ) as client:

        async def one_upload(i: int) -> int:
            files = {"file": (f"big-{i}.txt", data, "text/plain")}
            try:
                resp = await client.post(f"/api/v1/{cid}/documents", files=files)
            except httpx.TransportError:
                return 0
            return resp.status_code

        return await asyncio.gather(*(one_upload(i) for i in range(n)))


def concurrent_uploads(n: int, budgets: dict[str, str]) -> dict[str, Any]:
    """N concurrent largest uploads to one Context of a fresh server (budgets as given)."""
    import shutil
    import tempfile
    import threading

    from bench_load import make_context, serve

    from memwarden.limits import DOCUMENT_BODY_LIMIT
    from memwarden.store.embedded import embedded_url, start_embedded
    from memwarden.store.migrate import apply_migrations

    workdir = Path(tempfile.mkdtemp(prefix="memwarden-largest-"))
    workdir.chmod(0o755)
    pg = start_embedded(workdir / "pgdata")
    try:
        url = embedded_url(pg)
        apply_migrations(url)
        server = serve(url, workdir / "data", 1, budgets)
        try:
            cid, key = make_context(server)
            # The largest file whose multipart body stays within the route's 25 MiB.
            data = text_of(DOCUMENT_BODY_LIMIT - 1024).encode()
            gc.collect()
            pid = server.popen.pid
            rss_before, hwm_before = server.rss_mb(), _hwm_mb(pid)
            peak = [rss_before]
            done = threading.Event()

            def sample() -> None:
                while not done.is_set():
                    peak[0] = max(peak[0], server.rss_mb())
                    time.sleep(0.005)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            started = time.perf_counter()
            statuses = asyncio.run(_upload_all(server.url, cid, key, data, n))
            wall = time.perf_counter() - started
            done.set()
            sampler.join()
            return {
                "uploads": n,
                "mib_each": round(len(data) / 2**20, 2),
                "budgets": "off" if budgets else "defaults",
                "statuses": dict(sorted(Counter(statuses).items())),
                "wall_s": round(wall, 2),
                "rss_before_mb": round(rss_before, 1),
                "peak_rss_mb": round(peak[0], 1),
                "hwm_before_mb": round(hwm_before, 1),
                "hwm_after_mb": round(_hwm_mb(pid), 1),
                "rss_after_mb": round(server.rss_mb(), 1),
            }
        finally:
            server.stop()
    finally:
        pg.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


def uploads_main(n: int, as_json: bool) -> None:
    off = {
        "MEMWARDEN_CONTEXT_MAX_BYTES_IN_FLIGHT": "0",
        "MEMWARDEN_CONTEXT_MAX_PENDING_DOCUMENT_BYTES": "0",
    }
    results = []
    for budgets in (off, {}):
        STDERR.print(f"{n} concurrent largest uploads, budgets {budgets or 'at their defaults'}")
        results.append(concurrent_uploads(n, budgets))
    if as_json:
        print(json.dumps(results, indent=2))
        return
    table = Table(title=f"{n} concurrent largest uploads to one Context, over HTTP")
    columns = ("budgets", "answers", "wall s", "RSS before MB", "peak MB", "HWM MB", "after MB")
    for column in columns:
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(
            r["budgets"],
            ", ".join(f"{k}: {v}" for k, v in r["statuses"].items()),
            str(r["wall_s"]),
            str(r["rss_before_mb"]),
            str(r["peak_rss_mb"]),
            str(r["hwm_after_mb"]),
            str(r["rss_after_mb"]),
        )
    table_console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = f"16000,65536,{MAX_TURN_CHARS}"
    parser.add_argument("--sizes", default=default, help="characters per /facts, comma-separated")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # kind:chars:items, in a child
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--uploads", type=int, default=0, help="N concurrent largest uploads")
    args = parser.parse_args()
    if args.uploads:
        uploads_main(args.uploads, args.json)
        return
    if args.one:
        kind, chars, items = args.one.split(":")
        print(json.dumps(asyncio.run(one(kind, int(chars), int(items), args.profile))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.profile:
        asyncio.run(one("facts", sizes[0], 1, True))
        return
    results = []
    for kind, chars, items in cases(sizes):
        STDERR.print(f"{kind}: {items} x {chars} characters")
        child = subprocess.run(
            [sys.executable, __file__, "--one", f"{kind}:{chars}:{items}"],
            capture_output=True,
            text=True,
            check=True,
        )
        results.append(json.loads(child.stdout.strip().splitlines()[-1]))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    table = Table(title="the largest requests, offline (rule extractor, local embedder)")
    columns = ("kind", "items", "chars/item", "wall s", "embed s", "extract s", "records")
    for column in (*columns, "RSS before MB", "peak MB", "after MB"):
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(
            *(
                str(r[k])
                for k in (
                    "kind",
                    "items",
                    "chars_per_item",
                    "wall_s",
                    "embed_s",
                    "extract_s",
                    "memory_records",
                    "rss_before_mb",
                    "peak_rss_mb",
                    "rss_after_mb",
                )
            )
        )
    table_console().print(table)


if __name__ == "__main__":
    main()
