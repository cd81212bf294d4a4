"""Evaluate the deterministic detectors on the shared data sets and on our own held-out split
(`evals/judge/*.jsonl`, rows with `"split": "test"`), and measure their cost.

Usage: python benchmarks/bench_detectors.py [--data-dir DIR] [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from memwarden.detectors.cards import find_cards  # noqa: E402
from memwarden.detectors.credentials import find_credentials  # noqa: E402
from memwarden.detectors.evaluate import evaluate, render_table  # noqa: E402
from memwarden.detectors.injection import scan_injection  # noqa: E402
from memwarden.detectors.personal import find_personal_data  # noqa: E402
from memwarden.detectors.scan import scan  # noqa: E402

# Each detector alone, for the issue-26 budget (2 ms of CPU per KiB of text for the scan).
DETECTORS: dict[str, Callable[[str], object]] = {
    "cards": find_cards,
    "personal data": find_personal_data,
    "credentials": find_credentials,
    "injection": scan_injection,
}

DATA_FILES = ("sensitive/eval.jsonl", "injection/eval.jsonl")
OWN_DIR = REPO / "evals" / "judge"
OWN_FILES = (
    "payment_card",
    "credential",
    "personal_data",
    "memory_poisoning",
    "external_credential",
)


def load_own_rows(split: str = "test") -> list[dict[str, Any]]:
    """Our own evaluation rows of one split; a class file not written yet is skipped."""
    rows: list[dict[str, Any]] = []
    for name in OWN_FILES:
        path = OWN_DIR / f"{name}.jsonl"
        if path.exists():
            rows.extend(r for r in load_rows_for(path.parent, path.name) if r["split"] == split)
    return rows


def load_rows(data_dir: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in DATA_FILES:
        with (data_dir / name).open(encoding="utf-8") as handle:
            rows.extend(json.loads(line) for line in handle if line.strip())
    return rows


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def measure_cost(texts: Sequence[str], repeat: int) -> dict[str, float]:
    """Per-text scan latency (µs), µs per KB over all bytes, and texts per second."""
    for text in texts[:50]:  # warm regex caches and phonenumbers metadata
        scan(text)
    per_text: list[float] = []
    total_bytes = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for _ in range(repeat):
        for text in texts:
            t0 = time.perf_counter_ns()
            scan(text)
            per_text.append((time.perf_counter_ns() - t0) / 1000)
            total_bytes += len(text.encode("utf-8"))
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started  # less sensitive to other load on the machine
    per_text.sort()
    return {
        "texts": len(per_text),
        "mean_bytes": total_bytes / len(per_text),
        "us_per_kb": sum(per_text) / (total_bytes / 1024),
        "cpu_us_per_kb": cpu * 1e6 / (total_bytes / 1024),
        "p50_us": _percentile(per_text, 0.50),
        "p95_us": _percentile(per_text, 0.95),
        "p99_us": _percentile(per_text, 0.99),
        "max_us": per_text[-1],
        "texts_per_s": len(per_text) / elapsed,
    }


def measure_detectors(texts: Sequence[str], repeat: int) -> dict[str, float]:
    """CPU µs per KiB of each detector alone, best of `repeat` passes (less sensitive to load)."""
    kib = sum(len(t.encode("utf-8")) for t in texts) / 1024
    costs: dict[str, float] = {}
    for name, detect in DETECTORS.items():
        for text in texts[:50]:
            detect(text)
        best = float("inf")
        for _ in range(max(1, repeat)):
            started = time.process_time()
            for text in texts:
                detect(text)
            best = min(best, time.process_time() - started)
        costs[name] = best * 1e6 / kib
    return costs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes over the data")
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    args = parser.parse_args(argv)

    rows = load_rows(args.data_dir)
    report = evaluate(rows)
    own_rows = load_own_rows()
    own_report = evaluate(own_rows)
    by_set = {
        name.split("/")[0]: measure_cost(
            [str(r["text"]) for r in load_rows_for(args.data_dir, name)], args.repeat
        )
        for name in DATA_FILES
    }
    by_set["own (test split)"] = measure_cost([str(r["text"]) for r in own_rows], args.repeat)
    by_set["all"] = measure_cost([str(r["text"]) for r in rows + own_rows], args.repeat)
    per_detector = measure_detectors([str(r["text"]) for r in rows + own_rows], args.repeat)
    # The scanners' rows joined into one long text: a rule that is not linear shows here.
    external = OWN_DIR / "external_credential.jsonl"
    if external.exists():
        joined = "\n".join(str(r["text"]) for r in load_rows_for(OWN_DIR, external.name))
        by_set["external credential, one text"] = measure_cost([joined], args.repeat)

    if args.json:
        evaluation = {"evaluation": report.as_dict(), "own_test_split": own_report.as_dict()}
        print(json.dumps({**evaluation, "cost": by_set, "cpu_us_per_kib": per_detector}, indent=2))
        return 0

    from _tables import table_console
    from rich.table import Table

    console = table_console()
    console.print(render_table(report, title="Detector evaluation: shared sets"))
    console.print(render_table(own_report, title="Detector evaluation: evals/judge, test split"))
    cost = Table(title="Detector cost (scan(), one thread)")
    columns = ("set", "texts", "mean bytes", "µs/KB", "CPU µs/KB", "p50 µs", "p95 µs", "p99 µs")
    for column in (*columns, "texts/s"):
        cost.add_column(column, justify="left" if column == "set" else "right")
    for name, m in by_set.items():
        cost.add_row(
            name,
            str(int(m["texts"])),
            f"{m['mean_bytes']:.0f}",
            f"{m['us_per_kb']:.0f}",
            f"{m['cpu_us_per_kb']:.0f}",
            f"{m['p50_us']:.0f}",
            f"{m['p95_us']:.0f}",
            f"{m['p99_us']:.0f}",
            f"{m['texts_per_s']:.0f}",
        )
    console.print(cost)
    alone = Table(title="Each detector alone (CPU µs per KiB, best pass; budget 2000 for scan())")
    alone.add_column("detector")
    alone.add_column("CPU µs/KiB", justify="right")
    for name, value in per_detector.items():
        alone.add_row(name, f"{value:.0f}")
    console.print(alone)
    return 0


def load_rows_for(data_dir: Path, name: str) -> list[dict[str, Any]]:
    with (data_dir / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


if __name__ == "__main__":
    raise SystemExit(main())
