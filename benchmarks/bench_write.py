"""Benchmark the write path's own overhead: /facts minus the time spent in model calls.

The extraction model is an in-process instant model (the rule extractor's answers, timed
and subtracted), so what is measured is everything memwarden itself does per turn:
configuration, gates, windowing, chunking, local embeddings, reconciliation reads, the
write transaction. Run: `python benchmarks/bench_write.py [--turns 300] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, make_caller, peak_rss_mb, percentile, services
from _tables import table_console
from rich.progress import track
from rich.table import Table

from memwarden.models.base import JsonResult, SchemaLike, UsageSink
from memwarden.models.rule_extractor import RuleExtractor
from memwarden.pipeline.ingest import FactsInput, write_facts

NAMES = ["Alice", "Bruno", "Chen", "Dara", "Emeka", "Farah", "Gus", "Hana", "Ivo", "Jun"]
ROLES = ["engineer", "teacher", "nurse", "designer", "pilot", "chef", "lawyer", "CTO"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Soylent"]
CITIES = ["Oslo", "Lisbon", "Quito", "Hanoi", "Accra", "Lima", "Perth", "Riga"]
LIKES = ["jazz", "hiking", "ramen", "chess", "rust", "tea", "surfing", "opera", "cats"]
FILLER = [
    "We talked about the roadmap for a while.",
    "The weather has been strange this week.",
    "Remind me to check the budget numbers later.",
    "That meeting ran over by twenty minutes again.",
]


def turns(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts = [
            f"I'm {rng.choice(NAMES)}, {rng.choice(ROLES)} at {rng.choice(ORGS)}.",
            f"I live in {rng.choice(CITIES)}.",
            f"I love {rng.choice(LIKES)}.",
            rng.choice(FILLER),
        ]
        rng.shuffle(parts)
        out.append(" ".join(parts[: rng.randint(2, 4)]))
    return out


class InstantModel:
    """Answers at once with the rule extractor's output; counts calls and their time."""

    def __init__(self) -> None:
        self.inner = RuleExtractor()
        self.calls = 0
        self.seconds = 0.0

    @property
    def description(self) -> str:
        return "instant: rule extractor answers, timed"

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        schema: SchemaLike,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> JsonResult:
        started = time.perf_counter()
        result = await self.inner.complete_json(
            stage, system, user, schema, max_tokens, usage_sink=usage_sink
        )
        self.seconds += time.perf_counter() - started
        self.calls += 1
        return result


async def run(count: int, warmup: int, contexts: int) -> dict[str, Any]:
    async with services() as svc:
        model = InstantModel()
        svc.models.extraction = model  # type: ignore[assignment]
        callers = [await make_caller(svc, f"bench-{n}") for n in range(contexts)]
        results: dict[str, Any] = {}
        for seed, infer in enumerate(("full", "none")):
            texts = turns(count + warmup, seed=11 + seed)  # fresh text: no cached vectors
            overhead: list[float] = []
            calls_before = model.calls
            started = time.perf_counter()
            progress = track(texts, description=f"writing (infer={infer})", console=STDERR)
            for n, text in enumerate(progress):
                caller = callers[n % contexts]
                assert caller.context_id is not None
                t0, m0 = time.perf_counter(), model.seconds
                await write_facts(svc, caller, caller.context_id, FactsInput(text, infer))
                if n >= warmup:
                    overhead.append((time.perf_counter() - t0 - (model.seconds - m0)) * 1000)
            wall = time.perf_counter() - started
            results[infer] = {
                "turns": len(overhead),
                "p50_ms": round(percentile(overhead, 50), 2),
                "p95_ms": round(percentile(overhead, 95), 2),
                "p99_ms": round(percentile(overhead, 99), 2),
                "mean_ms": round(statistics.fmean(overhead), 2),
                "turns_per_s": round(len(texts) / wall, 1),
                "model_calls_per_turn": round((model.calls - calls_before) / len(texts), 2),
            }
        async with svc.db.connection() as conn:
            cur = await conn.execute("SELECT count(*) AS n FROM memory_record")
            row = await cur.fetchone()
        results["memory_records"] = row["n"] if row else 0
        results["peak_rss_mb"] = round(peak_rss_mb(), 1)
        return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--contexts", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.turns, args.warmup, args.contexts))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    table = Table(title="write overhead per turn (model time excluded)")
    for column in ("infer", "turns", "p50 ms", "p95 ms", "p99 ms", "turns/s", "model calls"):
        table.add_column(column, justify="right")
    for infer in ("full", "none"):
        r = result[infer]
        table.add_row(
            infer,
            str(r["turns"]),
            str(r["p50_ms"]),
            str(r["p95_ms"]),
            str(r["p99_ms"]),
            str(r["turns_per_s"]),
            str(r["model_calls_per_turn"]),
        )
    console = table_console()
    console.print(table)
    console.print(
        f"memory records: {result['memory_records']}, "
        f"peak RSS: {result['peak_rss_mb']} MB (target p50 <= 25 ms)"
    )


if __name__ == "__main__":
    main()
