"""Benchmark /query at 10k and 100k memories spread over many Contexts.

Records and chunks are bulk-loaded (COPY) with bodies drawn from LoCoMo's word frequencies
and clustered synthetic 384-d vectors, then the /query service call runs with the query's
vector supplied (database part) and with the local embedder (what a client waits for).
recall@10 compares the vector candidates with an exact numpy scan of the same Context.
Run: `python benchmarks/bench_query.py [--sizes 10000,100000] [--queries 300] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, make_caller, peak_rss_mb, percentile, services
from _tables import table_console
from psycopg.types.json import Jsonb
from rich.progress import track
from rich.table import Table

from memwarden.domain.ids import new_id
from memwarden.embedding import _CACHE, embed_texts
from memwarden.retrieval.indexing import index_large_contexts
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.search import search_memory

# The shared folder is ../shared from the repository root.
LOCOMO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo" / "locomo10.json"
DIM = 384
KINDS = ("attribute", "relation", "action", "entity")
# memory_record's COPY columns: ids, kind, category, owner, content, body, author, source,
# the current revision's vector and that revision
RECORD_TYPES = [
    "uuid",
    "uuid",
    "text",
    "text",
    "text",
    "jsonb",
    "text",
    "text",
    "text",
    "vector",
    "int4",
]


def vocabulary() -> tuple[list[str], list[float]]:
    """Words and their frequencies from LoCoMo's turns (a stand-in for real bodies)."""
    data = json.loads(LOCOMO.read_text())
    words: Counter[str] = Counter()
    for sample in data:
        for key, turns in sample["conversation"].items():
            if key.startswith("session_") and isinstance(turns, list):
                for turn in turns:
                    words.update(re.findall(r"[a-z']+", turn["text"].lower()))
    common = words.most_common(8000)
    return [w for w, _ in common], [float(c) for _, c in common]


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def exact_10(qvec: list, vectors: Any, records: list) -> set:
    """The ids of the Context's 10 nearest records to `qvec`, by an exact numpy scan."""
    exact = np.argsort(-(vectors @ np.asarray(qvec, dtype=np.float32)))[:10]
    return {records[i][0] for i in exact}


async def vector_hits(conn: Any, caller: Any, qvec: list) -> set:
    """The 10 records the vector search returns (its walk or exact scan, as recall runs it)."""
    found = await search_memory(
        conn,
        context_id=caller.context_id,
        prefixes=("",),
        subject=caller.subject,
        vector=qvec,
        limit=10,
    )
    return {h.record_id for h in found.hits}


async def load(svc: Any, size: int, contexts: int, rng: random.Random, np_rng: Any) -> list:
    words, weights = vocabulary()
    callers = [await make_caller(svc, f"ctx-{n}") for n in range(contexts)]
    centres = unit(np_rng.standard_normal((64, DIM)).astype(np.float32))
    per = size // contexts
    data: list[tuple[Any, list, np.ndarray]] = []
    async with svc.db.connection() as conn, conn.cursor() as cur:
        for caller in track(callers, description=f"loading {size:,} memories", console=STDERR):
            ids = [new_id() for _ in range(per)]
            bodies = [" ".join(rng.choices(words, weights, k=rng.randint(6, 20))) for _ in ids]
            picks = np_rng.integers(0, len(centres), per)
            noise = np_rng.standard_normal((per, DIM)).astype(np.float32) * 0.06
            vectors = unit(centres[picks] + noise)
            async with cur.copy(
                "COPY memory_record (context_id, id, kind, memory_category, owner_subject, "
                "content, body, author_subject, source_kind, embedding, embedding_revision) "
                "FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(RECORD_TYPES)
                for rid, body, vec in zip(ids, bodies, vectors, strict=True):
                    await copy.write_row(
                        (
                            caller.context_id,
                            rid,
                            rng.choice(KINDS),
                            "knowledge",
                            "bench",
                            Jsonb({"text": body}),
                            body,
                            "bench",
                            "turn",
                            vec,  # the record row carries its current revision's vector
                            1,
                        )
                    )
            async with cur.copy(
                "COPY memory_embedding (context_id, record_id, revision, embedding, model) "
                "FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["uuid", "uuid", "int4", "vector", "text"])
                for rid, vec in zip(ids, vectors, strict=True):
                    await copy.write_row((caller.context_id, rid, 1, vec, "synthetic"))
            turn = new_id()
            session = new_id()
            await cur.execute(
                "INSERT INTO session (context_id, id, principal_id) VALUES (%s, %s, %s)",
                (caller.context_id, session, caller.principal_id),
            )
            await cur.execute(
                "INSERT INTO turn (context_id, id, session_id, principal_id, text, owner_subject)"
                " VALUES (%s, %s, %s, %s, 'bench', 'bench')",
                (caller.context_id, turn, session, caller.principal_id),
            )
            async with cur.copy(
                "COPY chunk (context_id, id, turn_id, text, embedding, owner_subject) "
                "FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["uuid", "uuid", "uuid", "text", "vector", "text"])
                for n in range(0, per, 4):
                    await copy.write_row(
                        (caller.context_id, new_id(), turn, bodies[n], vectors[n], "bench")
                    )
            data.append((caller, list(zip(ids, bodies, strict=True)), vectors))
        await cur.execute("VACUUM ANALYZE")  # steady state: GIN pending lists merged
    await index_large_contexts(svc.db)  # what the vector_indexes job does for large Contexts
    return data


async def measure(svc: Any, data: list, queries: int, rng: random.Random, np_rng: Any) -> dict:
    db_ms, full_ms, embed_ms, recall = [], [], [], []
    for n in track(range(queries), description="querying", console=STDERR):
        caller, records, vectors = rng.choice(data)
        target = rng.randrange(len(records))
        text = " ".join(rng.sample(records[target][1].split(), 3))
        noisy = vectors[target] + np_rng.standard_normal(DIM).astype(np.float32) * 0.05
        qvec = (noisy / np.linalg.norm(noisy)).tolist()
        t0 = time.perf_counter()
        await run_query(svc, caller, caller.context_id, QueryInput(text, vector=qvec))
        db_ms.append((time.perf_counter() - t0) * 1000)
        if n % 3 == 0:
            _CACHE.entries.clear()  # the query's vector is computed, never reused
            t0 = time.perf_counter()
            await run_query(svc, caller, caller.context_id, QueryInput(text))
            full_ms.append((time.perf_counter() - t0) * 1000)
            _CACHE.entries.clear()
            t0 = time.perf_counter()
            await embed_texts(svc, [text])
            embed_ms.append((time.perf_counter() - t0) * 1000)
        async with svc.db.connection() as conn:
            got = await vector_hits(conn, caller, qvec)
        recall.append(len(exact_10(qvec, vectors, records) & got) / 10)

    def stats(values: list[float]) -> dict[str, float]:
        return {f"p{q}_ms": round(percentile(values, q), 2) for q in (50, 95, 99)}

    return {
        "db": stats(db_ms),
        "with_embedding": stats(full_ms),
        "embedding": stats(embed_ms),
        "recall_at_10": round(float(np.mean(recall)), 4),
    }


async def run(sizes: list[int], contexts: int, queries: int) -> list[dict]:
    out = []
    for size in sizes:
        rng, np_rng = random.Random(5), np.random.default_rng(5)
        async with services() as svc:
            started = time.perf_counter()
            data = await load(svc, size, contexts, rng, np_rng)
            load_s = round(time.perf_counter() - started, 1)
            svc.models.embedder.embed(["warm up"])
            result = await measure(svc, data, queries, rng, np_rng)
        out.append(
            {
                "memories": size,
                "contexts": contexts,
                "per_context": size // contexts,
                "load_s": load_s,
                **result,
                "peak_rss_mb": round(peak_rss_mb(), 1),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--contexts", type=int, default=100)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = asyncio.run(run(sizes, args.contexts, args.queries))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    table = Table(title="/query service call (memories + chunks, hybrid, limit 10)")
    for column in (
        "memories",
        "per Context",
        "db p50/p95/p99 ms",
        "with embedding p50/p95/p99",
        "embed p50",
        "recall@10 vs exact",
    ):
        table.add_column(column, justify="right")
    for r in results:
        db, full = r["db"], r["with_embedding"]
        table.add_row(
            f"{r['memories']:,}",
            str(r["per_context"]),
            f"{db['p50_ms']}/{db['p95_ms']}/{db['p99_ms']}",
            f"{full['p50_ms']}/{full['p95_ms']}/{full['p99_ms']}",
            str(r["embedding"]["p50_ms"]),
            str(r["recall_at_10"]),
        )
    table_console().print(table)


if __name__ == "__main__":
    main()
