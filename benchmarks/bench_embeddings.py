"""Benchmark the local embedder: load time, batch throughput, single-query latency, memory.

Run: `python benchmarks/bench_embeddings.py [--threads 2] [--json]`. Sentences are
generated from a fixed seed so runs are comparable; figures are for this machine only.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from typing import Any

TEXT = (
    "alice works at acme as chief technology officer and prefers short answers in bullet "
    "points she lives in berlin with her partner and two cats likes hiking jazz and rust "
    "the project deadline moved to march because the vendor delayed the database migration "
    "remember that bob is allergic to peanuts and never schedule meetings before nine"
)
WORDS = TEXT.split()


def sentences(count: int, words: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [
        " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "." for _ in range(count)
    ]


def rss_mb() -> float:
    """Current resident set size from /proc (Linux), else the peak from getrusage."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return peak_rss_mb()


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 2**20


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def run(
    threads: int | None, batch_size: int, count: int, words: int, queries: int
) -> dict[str, Any]:
    rss_before = rss_mb()
    started = time.perf_counter()
    from memwarden.models.local_embedder import LocalEmbedder

    embedder = LocalEmbedder(threads=threads, batch_size=batch_size)
    embedder.load()
    load_s = time.perf_counter() - started

    corpus = sentences(count, words)
    embedder.embed(corpus[:8])  # warm-up: first run allocates ONNX buffers
    started = time.perf_counter()
    embedder.embed(corpus)
    batch_s = time.perf_counter() - started

    probes = sentences(queries, 8, seed=11)
    latencies: list[float] = []
    for probe in probes:
        t0 = time.perf_counter()
        embedder.embed([probe])
        latencies.append((time.perf_counter() - t0) * 1000)

    return {
        "model": embedder.name,
        "threads": embedder.threads,
        "batch_size": batch_size,
        "sentences": count,
        "words_per_sentence": words,
        "load_s": round(load_s, 3),
        "sentences_per_s": round(count / batch_s, 1),
        "query_ms_p50": round(statistics.median(latencies), 2),
        "query_ms_p95": round(percentile(latencies, 95), 2),
        "query_ms_p99": round(percentile(latencies, 99), 2),
        "rss_mb": round(rss_mb(), 1),
        "rss_growth_mb": round(rss_mb() - rss_before, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def print_table(result: dict[str, Any]) -> None:
    from _tables import table_console
    from rich.table import Table

    table = Table(title=f"Local embedder: {result['model']} ({result['threads']} threads)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    rows = [
        ("load (s)", result["load_s"]),
        (
            f"sentences/s ({result['sentences']} x {result['words_per_sentence']} words, "
            f"batch {result['batch_size']})",
            result["sentences_per_s"],
        ),
        ("query ms p50", result["query_ms_p50"]),
        ("query ms p95", result["query_ms_p95"]),
        ("query ms p99", result["query_ms_p99"]),
        ("RSS MB (now)", result["rss_mb"]),
        ("RSS MB (peak)", result["peak_rss_mb"]),
    ]
    for name, value in rows:
        table.add_row(name, str(value))
    table_console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime intra-op threads")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--sentences", type=int, default=512)
    parser.add_argument("--words", type=int, default=30)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args(argv)
    result = run(args.threads, args.batch_size, args.sentences, args.words, args.queries)
    if args.json:
        print(json.dumps(result))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
