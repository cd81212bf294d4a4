"""LoCoMo evidence recall and /query latency with and without a reranker, interleaved.

LoCoMo's turns are written as `bench_locomo.py` writes them (offline defaults), once; then
every sampled category 1-4 question is asked through /query's use case twice, by Services
without a reranker and by Services with the one named (the same database, the order of
the two alternating per question, so load falls on both alike). Evidence recall@k as in
`bench_locomo.py`; the reranker's own calls are timed, and its failures (the stage then
serves the fused order) and tokens counted. Nothing here was tuned on LoCoMo: the prompt
and the stage are as shipped.

Run (any `/rerank` endpoint or OpenAI-compatible chat model; see docs/configuration.md):
`python benchmarks/bench_rerank.py --model rerank:bge-reranker-base --base-url URL
[--limit-conversations 2] [--questions 40] [--candidates 50] [--timeout 5] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, peak_rss_mb, percentile, services
from _locomo import DATA, sessions
from _tables import table_console
from bench_locomo import KS, ask, evidence, ingest
from rich.progress import Progress
from rich.table import Table

from memwarden.bootstrap import build_services
from memwarden.models.base import ModelError, UsageSink
from memwarden.models.rerank import Reranker, RerankResult
from memwarden.services import Services
from memwarden.store.db import Database

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


class TimedReranker:
    """The configured reranker, its calls timed and its failures and tokens counted."""

    def __init__(self, inner: Reranker) -> None:
        self.inner = inner
        self.ms: list[float] = []
        self.failures: dict[str, int] = {}
        self.tokens = 0

    @property
    def description(self) -> str:
        return self.inner.description

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def rerank(
        self, query: str, documents: Sequence[str], *, usage_sink: UsageSink | None = None
    ) -> RerankResult:
        started = time.perf_counter()
        try:
            result = await self.inner.rerank(query, documents, usage_sink=usage_sink)
        except ModelError as exc:
            name = type(exc).__name__
            self.failures[name] = self.failures.get(name, 0) + 1
            raise
        finally:
            self.ms.append((time.perf_counter() - started) * 1000)
        self.tokens += result.usage.total_tokens
        return result


def sample(qa: list[dict[str, Any]], count: int | None) -> list[dict[str, Any]]:
    """Category 1-4 questions with evidence, `count` of them spread evenly (all if None)."""
    asked = [q for q in qa if q["category"] in CATEGORIES and evidence(q.get("evidence", []))]
    if count is None or count >= len(asked):
        return asked
    step = len(asked) / count
    return [asked[int(n * step)] for n in range(count)]


async def reranking_services(base: Services, changes: dict[str, Any]) -> Services:
    """Services on the same database as `base`, with the reranker settings changed."""
    settings = base.settings.model_copy(update=changes)
    db = Database(settings.database_url or "", min_size=1, max_size=4)
    built = build_services(settings, db=db)
    await built.db.open()
    return built


def recall_at(want: set[str], ranked: list[str]) -> dict[int, float]:
    return {k: len(want & set(ranked[:k])) / len(want) for k in KS}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    data = json.loads(DATA.read_text())[: args.limit_conversations]
    changes: dict[str, Any] = {
        "model_rerank": args.model,
        "rerank_candidates": args.candidates,
        "rerank_timeout_s": args.timeout,
    }
    if args.base_url:
        changes["rerank_base_url"] = args.base_url
        changes.setdefault("openai_base_url", args.base_url)
    arms = ("fused", "reranked")
    scores: dict[str, dict[int, list[float]]] = {a: {k: [] for k in KS} for a in arms}
    by_category: dict[str, dict[int, list[float]]] = {a: {} for a in arms}
    latency: dict[str, list[float]] = {a: [] for a in arms}
    asked = {s["sample_id"]: sample(s["qa"], args.questions) for s in data}
    total_turns = sum(len(t) for s in data for _n, _d, t in sessions(s["conversation"]))
    total_questions = sum(len(v) for v in asked.values())
    async with services() as svc:
        reranked = await reranking_services(svc, changes)
        assert reranked.reranker is not None, "the reranker settings name no reranker"
        timed = TimedReranker(reranked.reranker)
        reranked.reranker = timed
        described = timed.description
        try:
            with Progress(console=STDERR) as progress:
                writing = progress.add_task("ingesting turns", total=total_turns)
                asking = progress.add_task("asking questions", total=total_questions)
                n = 0
                for conversation in data:
                    caller, by_turn, _ = await ingest(svc, conversation, progress, writing)
                    for qa in asked[conversation["sample_id"]]:
                        want = evidence(qa["evidence"])
                        order = arms if n % 2 == 0 else arms[::-1]
                        n += 1
                        for arm in order:
                            use = svc if arm == "fused" else reranked
                            got, ms = await ask(
                                use, caller, by_turn, qa["question"], args.mode, None
                            )
                            latency[arm].append(ms)
                            for k, value in recall_at(want, got).items():
                                scores[arm][k].append(value)
                            per = by_category[arm].setdefault(qa["category"], {k: [] for k in KS})
                            for k, value in recall_at(want, got).items():
                                per[k].append(value)
                        progress.advance(asking)
        finally:
            await reranked.close()
    return {
        "reranker": described,
        "mode": args.mode,
        "candidates": args.candidates,
        "timeout_s": args.timeout,
        "conversations": len(data),
        "turns": total_turns,
        "questions": len(scores["fused"][10]),
        "recall": {
            a: {f"@{k}": round(statistics.fmean(v), 4) for k, v in s.items()}
            for a, s in scores.items()
        },
        "recall_by_category": {
            a: {
                CATEGORIES[c]: {f"@{k}": round(statistics.fmean(v), 4) for k, v in per.items()}
                for c, per in sorted(cats.items())
            }
            for a, cats in by_category.items()
        },
        "query_ms": {
            a: {f"p{q}": round(percentile(v, q), 1) for q in (50, 95, 99)}
            for a, v in latency.items()
        },
        "reranker_ms": {f"p{q}": round(percentile(timed.ms, q), 1) for q in (50, 95, 99)},
        "reranker_calls": len(timed.ms),
        "reranker_failures": timed.failures,
        "reranker_tokens_per_question": round(timed.tokens / max(1, len(timed.ms)), 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="MEMWARDEN_MODEL_RERANK's value")
    parser.add_argument("--base-url", default=None, help="the /rerank or chat endpoint's base")
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--questions", type=int, default=None, help="per conversation")
    parser.add_argument("--candidates", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--mode", choices=("lexical", "vector", "hybrid"), default="hybrid")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    table = Table(
        title=f"LoCoMo evidence recall, {args.mode}, {result['questions']} questions of "
        f"{result['conversations']} conversations; reranker {result['reranker']}, top "
        f"{args.candidates}"
    )
    for column in ("arm", "recall@5", "recall@10", "recall@20", "query p50/p95/p99 ms"):
        table.add_column(column, justify="right")
    for arm in ("fused", "reranked"):
        r, ms = result["recall"][arm], result["query_ms"][arm]
        table.add_row(
            arm, str(r["@5"]), str(r["@10"]), str(r["@20"]), f"{ms['p50']}/{ms['p95']}/{ms['p99']}"
        )
    console = table_console()
    console.print(table)
    rms = result["reranker_ms"]
    console.print(
        f"reranker calls {result['reranker_calls']}, p50/p95/p99 {rms['p50']}/{rms['p95']}/"
        f"{rms['p99']} ms, failures {result['reranker_failures'] or 'none'}, "
        f"{result['reranker_tokens_per_question']} tokens a question"
    )
    for arm in ("fused", "reranked"):
        console.print(f"{arm} recall@10 by category: ", end="")
        console.print({c: v["@10"] for c, v in result["recall_by_category"][arm].items()})


if __name__ == "__main__":
    main()
