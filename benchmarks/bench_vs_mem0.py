"""Benchmark recall against mem0 on the same engine: mem0 in-process on pgvector (HNSW) and
memwarden's /query over HTTP, the same corpus, queries and MiniLM embedder, interleaved.

mem0 (`mem0ai`, `--mem0-version`) is installed from the package index into a virtual
environment of its own under the cache directory (`$XDG_CACHE_HOME` or `~/.cache`,
`memwarden-bench/mem0-<version>`), never into memwarden's; if it cannot be installed the
benchmark says so and stops. It gets a PostgreSQL of its own (a second embedded server from
the binaries memwarden uses, which carry pgvector), its pgvector store with `hnsw: true`,
and memwarden's own embedder (the int8 ONNX all-MiniLM-L6-v2 module, loaded from its file
in mem0's environment), so both sides embed every text and query with the same model.
mem0 runs as a child process in its environment and adds the corpus with `infer=False`
(once: its data directory is kept under the cache directory per version, size and seed);
`search` is timed inside that process (mem0 called in-process, as an application would).
memwarden gets the same texts bulk-loaded (COPY, vectors from the same embedder), its
per-Context index built, and `memwarden serve` answers `/query` (hybrid, limit 10, the
query embedded by the server) over one keep-alive connection. Each query goes to both, in
alternating order. hit@10: the record a query's words were drawn from is in the top 10.
mem0 is installed without its `nlp` extra (spaCy and a model download): its search then
embeds the query, walks its HNSW index and runs its keyword query on the words as typed
(no lemmas, no entity boosts). Its LLM and embedder configs name OpenAI with a placeholder
key only to construct it: `infer=False` calls no LLM, and the embedder is replaced.

Run: `python benchmarks/bench_vs_mem0.py [--size 10000] [--queries 200] [--rounds 5] [--json]`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MEM0_DEPS = ("psycopg[binary,pool]", "onnxruntime", "tokenizers", "numpy")


# --- the mem0 side: runs in mem0's own environment, imports nothing of memwarden's ---


def mem0_child(config_path: str) -> None:
    """Load the corpus into mem0, then answer queries read from stdin, one JSON per line:
    {"q": text} -> {"ms": search time, "embed_ms": its embedding's, "ids": [corpus ids]}."""
    import importlib.util

    from mem0 import Memory
    from mem0.embeddings.base import EmbeddingBase

    cfg = json.loads(Path(config_path).read_text())
    spec = importlib.util.spec_from_file_location("mw_local_embedder", cfg["embedder_module"])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    local = module.LocalEmbedder(
        model_path=Path(cfg["model_path"]), tokenizer_path=Path(cfg["tokenizer_path"])
    )

    spent = [0.0]  # ms in the embedder since the last answer

    class SameEmbedder(EmbeddingBase):
        def embed(self, text: str, memory_action: Any = None) -> list[float]:
            t0 = time.perf_counter()
            vector = list(local.embed([text])[0])
            spent[0] += (time.perf_counter() - t0) * 1000
            return vector

    memory = _memory(cfg, Memory)
    memory.embedding_model = SameEmbedder()
    started = time.perf_counter()
    if cfg.get("loaded_s") is None:  # else the kept data directory holds the corpus already
        for n, text in enumerate(cfg["texts"]):
            memory.add(text, user_id="bench", infer=False, metadata={"n": n})
            if n % 1000 == 999:
                print(json.dumps({"progress": n + 1}), file=sys.stderr, flush=True)
    loaded_s = cfg.get("loaded_s") or round(time.perf_counter() - started, 1)
    print(json.dumps({"loaded_s": loaded_s}), flush=True)
    for line in sys.stdin:
        query = json.loads(line)["q"]
        spent[0] = 0.0
        t0 = time.perf_counter()
        found = memory.search(query, filters={"user_id": "bench"}, top_k=10)
        took = (time.perf_counter() - t0) * 1000
        ids = [(hit.get("metadata") or {}).get("n", hit.get("n")) for hit in found["results"]]
        print(json.dumps({"ms": took, "embed_ms": spent[0], "ids": ids}), flush=True)


def _memory(cfg: dict[str, Any], memory_class: Any) -> Any:
    """mem0's Memory on its pgvector store with an HNSW index; the embedder named here is
    replaced by memwarden's before any text is embedded (its config only sets the size)."""
    return memory_class.from_config(
        {
            "vector_store": {
                "provider": "pgvector",
                "config": {
                    "connection_string": cfg["url"],
                    "collection_name": "bench",
                    "embedding_model_dims": 384,
                    "hnsw": True,
                },
            },
            "embedder": {"provider": "openai", "config": {"embedding_dims": 384}},
            "history_db_path": cfg["history_db"],
        }
    )


# --- the memwarden side: the benchmark itself, in memwarden's environment ---


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "memwarden-bench"


def mem0_python(version: str) -> Path | None:
    """mem0's own environment (made once, kept under the cache directory); None when it
    cannot be installed here, with the reason on stderr."""
    venv = cache_dir() / f"mem0-{version}"
    python = venv / "bin" / "python"
    if python.exists() and (venv / ".installed").exists():
        return python
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", f"mem0ai=={version}", *MEM0_DEPS],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(f"mem0ai {version} could not be installed:\n{done.stderr[-2000:]}", file=sys.stderr)
        return None
    (venv / ".installed").write_text(version)
    return python


def mem0_data_dir(args: argparse.Namespace) -> Path:
    """mem0's PostgreSQL data and history, kept between runs (its load takes about 15
    minutes at 10,000 memories): one directory per version, corpus size and seed."""
    return cache_dir() / f"mem0-{args.mem0_version}-data-{args.size}-{args.seed}"


def corpus(size: int, queries: int, seed: int) -> tuple[list[str], list[tuple[int, str]]]:
    """Bodies from LoCoMo's word frequencies; queries of 3 words from a random record."""
    import random

    from bench_query import vocabulary

    rng = random.Random(seed)
    words, weights = vocabulary()
    texts = [" ".join(rng.choices(words, weights, k=rng.randint(6, 20))) for _ in range(size)]
    asked = []
    for _ in range(queries):
        n = rng.randrange(size)
        asked.append((n, " ".join(rng.sample(texts[n].split(), 3))))
    return texts, asked


class Mem0:
    """The child process that holds mem0: one query in, one timed answer out."""

    def __init__(self, python: Path, config: Path) -> None:
        self.log = config.with_suffix(".log")
        self.proc = subprocess.Popen(
            [str(python), str(Path(__file__).resolve()), "--mem0-child", str(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log.open("w"),
            text=True,
            env={**os.environ, "MEM0_TELEMETRY": "False", "OPENAI_API_KEY": "unused"},
        )
        self.embed_ms: list[float] = []
        line = self._read()
        self.loaded_s = float(line["loaded_s"])

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            tail = self.log.read_text(errors="replace")[-3000:]
            raise SystemExit(f"mem0's process ended ({self.proc.wait()}):\n{tail}")
        return dict(json.loads(line))

    def search(self, text: str) -> tuple[float, list[int]]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"q": text}) + "\n")
        self.proc.stdin.flush()
        answer = self._read()
        self.embed_ms.append(float(answer["embed_ms"]))
        return float(answer["ms"]), list(answer["ids"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def run(args: argparse.Namespace, python: Path) -> dict[str, Any]:
    import shutil
    import tempfile

    import httpx
    import numpy as np
    import psycopg
    from _harness import percentile, services, stop_serve
    from bench_http_query import ADMIN, free_port, start_server

    from memwarden.admin.contexts import create_context
    from memwarden.domain.ids import new_id
    from memwarden.models import local_embedder
    from memwarden.retrieval.indexing import index_large_contexts
    from memwarden.store.bulk import BulkRecord, copy_records
    from memwarden.store.embedded import embedded_url, start_embedded

    texts, asked = corpus(args.size, args.queries, args.seed)
    work = Path(tempfile.mkdtemp(prefix="memwarden-vs-mem0-"))
    kept = mem0_data_dir(args)
    kept.mkdir(parents=True, exist_ok=True)
    marker = kept / "loaded.json"  # written once mem0 has the whole corpus
    loaded_s = json.loads(marker.read_text())["loaded_s"] if marker.exists() else None
    if loaded_s is None:  # a load cut short leaves a partial collection: start again
        shutil.rmtree(kept / "pgdata", ignore_errors=True)
        (kept / "history.db").unlink(missing_ok=True)
    mem0_pg = start_embedded(kept / "pgdata")
    try:
        mem0_url = embedded_url(mem0_pg)
        with psycopg.connect(mem0_url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        config = work / "mem0.json"
        config.write_text(
            json.dumps(
                {
                    "url": mem0_url,
                    "history_db": str(kept / "history.db"),
                    "loaded_s": loaded_s,
                    "embedder_module": local_embedder.__file__,
                    "model_path": str(local_embedder.default_model_path()),
                    "tokenizer_path": str(local_embedder.default_tokenizer_path()),
                    "texts": texts,
                }
            )
        )
        async with services() as svc:
            made = await create_context(svc.db, ADMIN, "vs-mem0", owner="bench")
            assert made.owner_key is not None
            key, context_id = made.owner_key.key, made.id
            caller_context = uuid.UUID(context_id)
            started = time.perf_counter()
            vectors = np.asarray(svc.models.embedder.embed(texts), dtype=np.float32)
            ids = [new_id() for _ in texts]
            rows = [
                BulkRecord(i, "attribute", t, v)
                for i, t, v in zip(ids, texts, vectors, strict=True)
            ]
            async with svc.db.transaction() as conn:
                await copy_records(conn, caller_context, rows)
            async with svc.db.connection() as conn:
                await conn.execute("VACUUM ANALYZE")
            await index_large_contexts(svc.db, svc.settings.vector_index_threshold)
            memwarden_load_s = time.perf_counter() - started
            by_id = {i: n for n, i in enumerate(ids)}
            mem0 = Mem0(python, config)
            marker.write_text(json.dumps({"loaded_s": mem0.loaded_s}))
            url = svc.settings.database_url
            assert url is not None
            port = free_port()
            proc = start_server(url, svc.settings.data_dir, port)
            took: dict[str, list[float]] = {"mem0": [], "memwarden": []}
            hits = {"mem0": 0, "memwarden": 0}
            headers = {"authorization": f"Bearer {key}"}
            try:
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers) as http:

                    def ask_memwarden(text: str) -> tuple[float, list[int]]:
                        t0 = time.perf_counter()
                        r = http.post(f"/api/v1/{context_id}/query", json={"query": text})
                        ms = (time.perf_counter() - t0) * 1000
                        if r.status_code != 200:
                            raise SystemExit(f"/query answered {r.status_code}: {r.text[:200]}")
                        found = [by_id.get(uuid.UUID(h["id"])) for h in r.json()["hits"]]
                        return ms, [n for n in found if n is not None]

                    for _, text in asked[:20]:  # warm both: prepared statements, the models
                        ask_memwarden(text + " warm")
                        mem0.search(text + " warm")
                    for rnd in range(args.rounds):
                        for q, (target, text) in enumerate(asked):
                            sides = [("mem0", mem0.search), ("memwarden", ask_memwarden)]
                            if (q + rnd) % 2:
                                sides.reverse()
                            for name, ask in sides:
                                ms, found = ask(f"{text} {rnd}")  # new text: no cache hit
                                took[name].append(ms)
                                hits[name] += target in found[:10]
            finally:
                stop_serve(proc)
                mem0.close()
    finally:
        mem0_pg.cleanup()
        shutil.rmtree(work, ignore_errors=True)
    asked_n = args.queries * args.rounds
    table = {}
    for q in (50, 95, 99):
        a, b = percentile(took["mem0"], q), percentile(took["memwarden"], q)
        table[f"p{q}"] = {"mem0": round(a, 2), "memwarden": round(b, 2), "ratio": round(b / a, 2)}
    return {
        "memories": args.size,
        "queries": asked_n,
        "mem0_version": args.mem0_version,
        "mem0_load_s": round(mem0.loaded_s, 1),
        "memwarden_load_s": round(memwarden_load_s, 1),
        "hit_at_10": {k: round(v / asked_n, 3) for k, v in hits.items()},
        "mem0_embed_ms": {f"p{q}": round(percentile(mem0.embed_ms, q), 2) for q in (50, 95)},
        "latency_ms": table,
        "load_average": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--mem0-child":
        mem0_child(sys.argv[2])
        return
    import asyncio

    sys.path.insert(0, str(HERE))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--mem0-version", default="2.2.1")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    python = mem0_python(args.mem0_version)
    if python is None:
        print("skipped: mem0 is not installable here", file=sys.stderr)
        return
    r = asyncio.run(run(args, python))
    if args.json:
        print(json.dumps(r, indent=2))
        return
    from _harness import STDERR
    from _tables import table_console
    from rich.table import Table

    STDERR.print(
        f"{r['memories']:,} memories, {r['queries']} queries; mem0 {r['mem0_version']} loaded in"
        f" {r['mem0_load_s']} s, memwarden in {r['memwarden_load_s']} s; hit@10 mem0"
        f" {r['hit_at_10']['mem0']}, memwarden {r['hit_at_10']['memwarden']}; mem0's query"
        f" embedding p50/p95 {r['mem0_embed_ms']['p50']}/{r['mem0_embed_ms']['p95']} ms;"
        f" load average {r['load_average']}"
    )
    table = Table(title="search: mem0 in-process on pgvector (HNSW) vs memwarden /query over HTTP")
    for column in ("percentile", "mem0 ms", "memwarden ms", "memwarden / mem0"):
        table.add_column(column, justify="right")
    for q, row in r["latency_ms"].items():
        table.add_row(q, str(row["mem0"]), str(row["memwarden"]), str(row["ratio"]))
    table_console().print(table)


if __name__ == "__main__":
    main()
