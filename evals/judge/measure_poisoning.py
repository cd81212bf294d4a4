"""Score the detectors on `memory_poisoning.jsonl` (and the shared injection set's benign rows).

A row counts as flagged when `scan()` reports `prompt_injection`, the reason code memory
poisoning shares with other injections. Until `memwarden eval judge` reads the `split` field this
is the measurement; run it with the worktree on PYTHONPATH:

    PYTHONPATH=src python evals/judge/measure_poisoning.py [--split test] [--shared PATH]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from memwarden.detectors.findings import PROMPT_INJECTION
from memwarden.detectors.scan import scan

DATA = Path(__file__).with_name("memory_poisoning.jsonl")


def flagged(text: str) -> bool:
    return PROMPT_INJECTION in scan(text).codes


def table(rows: list[dict[str, str]], show_misses: bool) -> None:
    # counts[source] = [pos, neg, tp, fp]
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses: list[tuple[str, str]] = []
    for r in rows:
        hit = flagged(r["text"])
        positive = r["label"] != "none"
        for key in ("all", r["source"]):
            c = counts[key]
            c[0 if positive else 1] += 1
            c[2 if positive else 3] += int(hit)
        if positive != hit:
            misses.append(("FN" if positive else "FP", r["text"]))
    print(
        f"{'source':28} {'pos':>4} {'neg':>4} {'TP':>4} {'FP':>4} {'prec':>6} {'recall':>6} "
        f"{'FPrate':>6}"
    )
    for key in ["all", *sorted(k for k in counts if k != "all")]:
        pos, neg, tp, fp = counts[key]
        prec = f"{tp / (tp + fp):.3f}" if tp + fp else "-"
        rec = f"{tp / pos:.3f}" if pos else "-"
        fpr = f"{fp / neg:.3f}" if neg else "-"
        print(f"{key:28} {pos:>4} {neg:>4} {tp:>4} {fp:>4} {prec:>6} {rec:>6} {fpr:>6}")
    if show_misses:
        for kind, text in misses:
            print(f"--- {kind}: {text[:300]!r}")


def shared_fp(path: Path) -> None:
    benign = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    benign = [r for r in benign if r["label"] == "benign"]
    fp = [r for r in benign if flagged(r["text"])]
    print(
        f"shared injection set, benign rows: {len(fp)}/{len(benign)} flagged "
        f"(FP rate {len(fp) / len(benign):.4f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="test", choices=["train", "test", "all"])
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--shared", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.open(encoding="utf-8") if line.strip()]
    if args.split != "all":
        rows = [r for r in rows if r["split"] == args.split]
    table(rows, args.misses)
    if args.shared:
        shared_fp(args.shared)


if __name__ == "__main__":
    main()
