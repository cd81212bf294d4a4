"""bench_query's large run on a Citus cluster: the same records and chunks bulk-loaded (COPY)
over many Contexts into a coordinator with two workers on loopback, the per-Context vector
indexes built by the index job, then the /query service call with the query's vector given
(database part) and with the local embedder, and recall@10 against an exact scan, printed
in bench_query's table. Compare with `bench_query.py --sizes N --contexts C` on one server
(the same seeds, so the same data and queries).

    python benchmarks/bench_citus_query.py [--size 1000000] [--contexts 100] [--queries 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import peak_rss_mb
from _tables import table_console
from bench_citus import cluster
from bench_query import load, measure
from rich.table import Table

from memwarden.bootstrap import build_services
from memwarden.settings import Settings
from memwarden.store.db import Database


async def run(url: str, size: int, contexts: int, queries: int) -> dict:
    rng, np_rng = random.Random(5), np.random.default_rng(5)
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-bench-citus-data-"))
    db = Database(url, min_size=1, max_size=4)
    svc = build_services(Settings(database_url=url, data_dir=workdir), db=db)
    await svc.db.open()
    try:
        started = time.perf_counter()
        data = await load(svc, size, contexts, rng, np_rng)
        load_s = round(time.perf_counter() - started, 1)
        svc.models.embedder.embed(["warm up"])
        result = await measure(svc, data, queries, rng, np_rng)
    finally:
        await svc.db.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "backend": "citus (1 + 2 nodes)",
        "memories": size,
        "contexts": contexts,
        "per_context": size // contexts,
        "load_s": load_s,
        **result,
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--contexts", type=int, default=100)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with cluster() as url:
        r = asyncio.run(run(url, args.size, args.contexts, args.queries))
    if args.json:
        print(json.dumps(r, indent=2))
        return
    table = Table(title="/query service call on Citus (memories + chunks, hybrid, limit 10)")
    columns = (
        "memories",
        "per Context",
        "load s",
        "db p50/p95/p99 ms",
        "with embedding p50/p95/p99",
        "embed p50",
        "recall@10 vs exact",
        "peak RSS MB",
    )
    for column in columns:
        table.add_column(column, justify="right")
    db, full = r["db"], r["with_embedding"]
    table.add_row(
        f"{r['memories']:,}",
        str(r["per_context"]),
        str(r["load_s"]),
        f"{db['p50_ms']}/{db['p95_ms']}/{db['p99_ms']}",
        f"{full['p50_ms']}/{full['p95_ms']}/{full['p99_ms']}",
        str(r["embedding"]["p50_ms"]),
        str(r["recall_at_10"]),
        str(r["peak_rss_mb"]),
    )
    table_console().print(table)


if __name__ == "__main__":
    main()
