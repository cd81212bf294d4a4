"""Hygiene adjudication on the project's labelled pairs (`evals/hygiene/`), per split.

Runs the same steps as `memwarden eval hygiene` (cross-project filter, adjudicator,
routing; nothing stored) on `nli.jsonl` and `handwritten.jsonl`, prints the confusion
matrix and headline numbers for the train and test splits, and estimates model calls per
1,000 memories scanned.

Offline (the default) no model is called, so the call estimate is what a configured model
WOULD be asked: the share of pairs that pass the cross-project filter (each one model
call) × neighbours per subject (`--neighbours`, the candidates inside the review band a
scan takes per subject) × 1,000, split by judging path (authoritative pairs go to the
adjudication model, the rest to the hygiene model). With `--models`, the configured models
(`MEMWARDEN_MODEL_ADJUDICATION`, `MEMWARDEN_MODEL_HYGIENE`) judge and the calls are counted.

Usage: python benchmarks/bench_hygiene.py [--neighbours 5] [--models] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from memwarden.hygiene.adjudicate import judging_path  # noqa: E402
from memwarden.hygiene.evaluate import (  # noqa: E402
    PREDICTIONS,
    SHORT,
    LabelledPair,
    Report,
    evaluate,
    parse_row,
)

DATA = (REPO / "evals/hygiene/nli.jsonl", REPO / "evals/hygiene/handwritten.jsonl")


def load() -> list[LabelledPair]:
    return [
        parse_row(json.loads(line))
        for path in DATA
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def calls_per_1000(report: Report, neighbours: int) -> dict[str, float]:
    """Model calls per 1,000 subjects: each pair past the filter is one call."""
    judged = [o for o in report.outcomes if o.action != "skipped_cross_project"]
    total = len(report.outcomes) or 1
    by_path = {"adjudication": 0, "hygiene": 0}
    for o in judged:
        by_path[judging_path(o.pair.a.rank, o.pair.b.rank)] += 1
    return {path: count / total * neighbours * 1000 for path, count in by_path.items()}


async def run(neighbours: int, use_models: bool) -> dict[str, Any]:
    choose = None
    models = None
    if use_models:
        from memwarden.bootstrap import model_settings
        from memwarden.config import ContextConfig
        from memwarden.hygiene.adjudicate import choose_adjudicator
        from memwarden.models.registry import Models
        from memwarden.settings import get_settings

        models = Models(model_settings(get_settings()))
        config = ContextConfig()

        def choose(path: Any) -> Any:
            return choose_adjudicator(models, config, path)

    pairs = load()
    out: dict[str, Any] = {}
    try:
        for split in ("train", "test"):
            chosen = [p for p in pairs if p.split == split]
            started = time.perf_counter()
            report = await evaluate(chosen, choose)
            elapsed = time.perf_counter() - started
            out[split] = {
                **report.as_dict(),
                "seconds": round(elapsed, 3),
                "estimated_calls_per_1000_subjects": calls_per_1000(report, neighbours),
            }
    finally:
        if models is not None:
            await models.aclose()
    return out


def _fmt(value: Any) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def print_tables(result: dict[str, Any], neighbours: int) -> None:
    for split, r in result.items():
        print(f"\n## split {split}: {r['pairs']} pairs, {r['seconds']} s\n")
        print("| gold \\ verdict | " + " | ".join(SHORT[p] for p in PREDICTIONS) + " |")
        print("|---" * (len(PREDICTIONS) + 1) + "|")
        for label, row in r["confusion"].items():
            print(f"| {label} | " + " | ".join(str(row[p]) for p in PREDICTIONS) + " |")
        wrong, judged = r["wrong_direction_supersedes"], r["supersedes_judged_supersedes"]
        calls = r["estimated_calls_per_1000_subjects"]
        print()
        print("| measure | value |\n|---|---|")
        print(f"| accuracy | {_fmt(r['accuracy'])} |")
        false_supersedes = _fmt(r["false_supersede_rate_complementary"])
        print(f"| false-supersede rate on complementary | {false_supersedes} |")
        print(f"| wrong-direction supersedes | {wrong} of {judged} |")
        print(f"| cross-project pairs skipped | {_fmt(r['cross_project_skipped_share'])} |")
        print(f"| same-project pairs skipped | {r['false_cross_project_skips']} |")
        print(f"| routing | {', '.join(f'{k} {v}' for k, v in r['routing'].items())} |")
        print(
            f"| model calls per 1,000 subjects ({neighbours} neighbours each) | "
            f"adjudication {calls['adjudication']:.0f}, hygiene {calls['hygiene']:.0f} |"
        )
        print(f"| model calls made | {r['model_calls']} (errors {r['model_errors']}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--neighbours", type=int, default=5)
    parser.add_argument("--models", action="store_true", help="judge with the configured models")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.neighbours, args.models))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_tables(result, args.neighbours)


if __name__ == "__main__":
    main()
