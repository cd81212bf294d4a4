"""Benchmark the cost of the largest request the limits allow: one /facts and one
/facts/batch, offline (rule extractor, local embedder), each in a fresh process so its
peak RSS is its own.

For each size it reports wall time, peak RSS, the RSS left after the request (what the
process keeps), the chunks embedded and the time spent in embedding and extraction.
Run: `python benchmarks/bench_largest_request.py [--sizes 16000,65536,128000] [--json]`
(`--profile` prints the 25 most expensive functions of one /facts of the first size).
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psutil
from _harness import STDERR, make_caller, peak_rss_mb, services
from rich.console import Console
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = f"16000,65536,{MAX_TURN_CHARS}"
    parser.add_argument("--sizes", default=default, help="characters per /facts, comma-separated")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # kind:chars:items, in a child
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
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
    Console().print(table)


if __name__ == "__main__":
    main()
