"""The ingest judge's cost per write: detectors per KB, redaction, and the gate overhead
over an instant scripted model (the real OpenAI client on 127.0.0.1, so what is measured
is our code plus one local HTTP round trip per window, not a model).

Usage: python benchmarks/bench_judge.py [--repeat N] [--json]
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from memwarden.config import ContextConfig  # noqa: E402
from memwarden.detectors import redact, scan, verdict_for  # noqa: E402
from memwarden.gatekeeper import RowInput  # noqa: E402
from memwarden.judge.assess import assess  # noqa: E402
from memwarden.judge.model import ModelChoice, judge_rows  # noqa: E402
from memwarden.judge.usage import DeferredSink  # noqa: E402
from memwarden.models.openai_compat import OpenAICompatProvider  # noqa: E402
from tests.support.scripted_model import Reply, ScriptedModelServer  # noqa: E402

SIZES_KB = (1, 4, 16, 64, 128)
_PROSE = (
    "alice met the team on tuesday to plan the release of the new search feature and "
    "asked for a summary of open questions about pricing latency and hosting"
)
WORDS = _PROSE.split(" ")


def corpus(kb: int, seed: int = 7) -> str:
    """Plausible prose with a sprinkling of e-mails and numbers, `kb` KiB long."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < kb * 1024:
        word = rng.choice(WORDS)
        if rng.random() < 0.005:
            word = f"user{rng.randint(1, 99)}@example.com"
        parts.append(word)
        size += len(word) + 1
    return " ".join(parts)[: kb * 1024]


def _timed(fn: Any, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def bench_detectors(repeat: int) -> list[dict[str, Any]]:
    rows = []
    for kb in SIZES_KB:
        text = corpus(kb)
        scan(text)  # warm caches
        scans = _timed(lambda t=text: verdict_for(scan(t)), repeat)
        redacts = _timed(lambda t=text: redact(t), repeat)
        median = statistics.median(scans)
        rows.append(
            {
                "kb": kb,
                "detect_ms": round(median * 1000, 3),
                "detect_us_per_kb": round(median * 1e6 / kb, 1),
                "redact_ms": round(statistics.median(redacts) * 1000, 3),
            }
        )
    return rows


async def bench_gate(repeat: int) -> list[dict[str, Any]]:
    rows = []
    with ScriptedModelServer() as server:
        server.respond_with("judge", Reply.json({"verdict": "pass", "reasons": []}))
        server.respond_with(
            "row_judge",
            lambda r: Reply.json(
                {
                    "rows": [
                        {"id": i["id"], "verdict": "pass", "reasons": []}
                        for i in json.loads(r.user)
                    ]
                }
            ),
        )
        async with OpenAICompatProvider(
            "bench", base_url=server.base_url, api_key="k", max_retries=0
        ) as provider:
            choice = ModelChoice(provider, "openai:bench")
            config = ContextConfig()
            for kb in (1, 16, 64, 125):
                text = corpus(kb)
                await assess(text, config, choice, None)  # warm the connection
                times = []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    await assess(text, config, choice, None)
                    times.append(time.perf_counter() - t0)
                windows = -(-len(text) // 16_000)
                rows.append(
                    {
                        "case": f"input gate {kb} KiB",
                        "model_calls": windows,
                        "ms": round(statistics.median(times) * 1000, 2),
                    }
                )
            for n in (10, 50):
                batch = [
                    RowInput(
                        f"a{i}",
                        "attribute",
                        {"entity": "Alice", "key": f"k{i}", "value": "blue"},
                        ("Alice",),
                    )
                    for i in range(n)
                ]
                times = []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    await judge_rows(provider, None, batch, config, DeferredSink())
                    times.append(time.perf_counter() - t0)
                rows.append(
                    {
                        "case": f"row gate {n} rows",
                        "model_calls": 1,
                        "ms": round(statistics.median(times) * 1000, 2),
                    }
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    args = parser.parse_args()
    detectors = bench_detectors(args.repeat)
    gate = asyncio.run(bench_gate(args.repeat))
    if args.json:
        print(json.dumps({"detectors": detectors, "gate": gate}, indent=2))
        return
    from _tables import table_console
    from rich.table import Table

    console = table_console()
    table = Table(title="Detectors (whole text, as the input gate runs them)")
    for col in ("KiB", "detect ms", "µs per KiB", "redact ms"):
        table.add_column(col, justify="right")
    for r in detectors:
        table.add_row(
            str(r["kb"]),
            f"{r['detect_ms']:.3f}",
            f"{r['detect_us_per_kb']:.1f}",
            f"{r['redact_ms']:.3f}",
        )
    console.print(table)
    table = Table(title="Gate overhead with an instant scripted model (median)")
    for col in ("case", "model calls", "ms"):
        table.add_column(col, justify="right" if col != "case" else "left")
    for r in gate:
        table.add_row(r["case"], str(r["model_calls"]), f"{r['ms']:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
