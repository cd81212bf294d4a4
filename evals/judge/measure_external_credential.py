"""Score the credential detectors on `external_credential.jsonl`, per source and per form.

`memwarden eval judge --data evals/judge/external_credential.jsonl --split test` gives the
same per-source numbers; this script adds the split by form (a bare value against a value in
its carrier line) and can list the misses of one split for tuning (train only, by rule):

    PYTHONPATH=src python evals/judge/measure_external_credential.py [--split test] [--misses]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from memwarden.detectors.findings import CREDENTIAL
from memwarden.detectors.scan import find_sensitive

DATA = Path(__file__).with_name("external_credential.jsonl")


def flagged(text: str) -> bool:
    return any(f.code == CREDENTIAL for f in find_sensitive(text))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="test", choices=("train", "test", "all"))
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if args.split == "all" or r["split"] == args.split]
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # pos, neg, tp, fp
    misses = []
    for row in rows:
        hit = flagged(row["text"])
        positive = row["label"] == "credential"
        for key in ("all", f"form={row['form']}", row["source"]):
            entry = counts[key]
            entry[0 if positive else 1] += 1
            entry[2 if positive else 3] += int(hit)
        if hit != positive:
            misses.append(("FN" if positive else "FP", row["source"], row["text"]))
    table = {
        key: {
            "positives": c[0],
            "negatives": c[1],
            "recall": round(c[2] / c[0], 3) if c[0] else None,
            "false_positive_rate": round(c[3] / c[1], 3) if c[1] else None,
        }
        for key, c in sorted(counts.items(), key=lambda kv: (kv[0] != "all", kv[0]))
    }
    if args.json:
        print(json.dumps(table, indent=1))
    else:
        print(f"{'source':<75} {'pos':>4} {'neg':>4} {'recall':>7} {'FP rate':>7}")
        for key, m in table.items():
            print(
                f"{key:<75} {m['positives']:>4} {m['negatives']:>4} "
                f"{m['recall'] if m['recall'] is not None else '-':>7} "
                f"{m['false_positive_rate'] if m['false_positive_rate'] is not None else '-':>7}"
            )
    if args.misses:
        for kind, source, text in misses:
            print(kind, source.split("/")[-1], repr(text[:160]))


if __name__ == "__main__":
    main()
