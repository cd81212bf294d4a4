"""Benchmark the background passes: cost per 1,000 memories (model calls, tokens, time).

A throwaway database gets `--memories` turns written offline (the rule extractor), then each
pass runs once over all of it, offline and with a scripted model (the real OpenAI client on
127.0.0.1 answering at once, with `usage` of 120 prompt + 30 completion tokens per call), so
what is measured is memwarden's own work per pass plus the calls it makes. A second run of
each pass shows the incremental cost (nothing new: no calls, nothing written).
Run: `python benchmarks/bench_passes.py [--memories 200] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _harness import STDERR, make_caller, services
from _tables import table_console
from bench_write import turns
from psycopg.types.json import Jsonb
from rich.progress import track
from rich.table import Table

from memwarden.passes.runs import create_run, execute
from memwarden.pipeline.ingest import FactsInput, write_facts
from tests.support.scripted_model import Reply, ScriptedModelServer

STAGES = ("rollup", "gist", "consolidation", "elaboration")
IDS = re.compile(r"\[([0-9a-f-]{36})\]")
USAGE = {"prompt_tokens": 120, "completion_tokens": 30}  # per scripted call


def _elaborate(request: Any) -> Reply:
    ids = IDS.findall(request.user)
    row = {"entity": "Alice", "key": "derived", "value": "yes", "memoryCategory": "knowledge"}
    lists = {k: [] for k in ("entities", "relations", "actions", "instructions")}
    lists |= {"uncertainties": [], "corrections": []}
    return Reply.json({**lists, "attributes": [{**row, "derivedFrom": ids[:2]}]}, **USAGE)


def script(server: ScriptedModelServer) -> None:
    server.respond_with("rollup", Reply.json({"summary": "A short summary."}, **USAGE))
    server.respond_with("gist", Reply.json({"summary": "A short gist."}, **USAGE))
    server.respond_with(
        "consolidation",
        Reply.json({"same": True, "survivor": "b", "confidence": 0.95}, **USAGE),
    )
    server.respond_with("elaboration", _elaborate)


async def _one(svc: Any, context_id: Any, stage: str) -> dict[str, Any]:
    async with svc.db.transaction() as conn:
        run_id = await create_run(conn, context_id, stage, "manual", "bench")
    started = time.perf_counter()
    await execute(svc, context_id, run_id)
    seconds = time.perf_counter() - started
    async with svc.db.connection() as conn:
        cur = await conn.execute(
            "SELECT status, inputs, written FROM pass_run WHERE context_id = %s AND id = %s",
            (context_id, run_id),
        )
        run = await cur.fetchone()
        cur = await conn.execute(
            "SELECT coalesce(sum(calls), 0) AS calls,"
            " coalesce(sum(prompt_tokens + completion_tokens), 0) AS tokens"
            " FROM usage WHERE context_id = %s AND stage = %s",
            (context_id, stage),
        )
        used = await cur.fetchone()
    assert run is not None and used is not None
    return {**run, "seconds": seconds, "calls": int(used["calls"]), "tokens": int(used["tokens"])}


async def measure(count: int, modelled: bool) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    server = None
    if modelled:
        server = ScriptedModelServer().start()
        script(server)
        settings = {
            "openai_base_url": server.base_url,
            "openai_api_key": "bench",
            **{f"model_{s}": f"openai:{s}-model" for s in STAGES},
        }
    try:
        async with services(**settings) as svc:
            await svc.jobs.open_async()
            caller = await make_caller(svc, "bench-passes")
            assert caller.context_id is not None
            cid = caller.context_id
            async with svc.db.transaction() as conn:
                config = {"passes": {"elaboration": {"enabled": True}, "rollup_idle_minutes": 0}}
                await conn.execute(
                    "UPDATE context SET config = %s WHERE id = %s", (Jsonb(config), cid)
                )
            label = "model" if modelled else "offline"
            texts = turns(count)
            # Every 20th turn is longer than one extraction window: the gist pass's input.
            texts += [" ".join(turns(120, seed=n)) for n in range(max(1, count // 20))]
            for text in track(texts, description=f"writing ({label})", console=STDERR):
                await write_facts(svc, caller, cid, FactsInput(text, "full"))
            async with svc.db.connection() as conn:
                cur = await conn.execute(
                    "SELECT count(*) AS n FROM memory_record WHERE context_id = %s", (cid,)
                )
                row = await cur.fetchone()
            memories = int(row["n"]) if row else 0
            out: dict[str, Any] = {"memories": memories}
            for stage in STAGES:
                first = await _one(svc, cid, stage)
                again = await _one(svc, cid, stage)
                again["calls"] -= first["calls"]
                again["tokens"] -= first["tokens"]
                out[stage] = {"first": first, "again": again}
            await svc.jobs.close_async()
            return out
    finally:
        if server is not None:
            server.stop()


def per_1000(value: float, memories: int) -> float:
    return round(value * 1000 / memories, 2) if memories else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=200, help="turns written first")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {
        "offline": asyncio.run(measure(args.memories, False)),
        "model": asyncio.run(measure(args.memories, True)),
    }
    if args.json:
        print(json.dumps(results, indent=2, default=str))
        return
    table = Table(title="background passes: cost per 1,000 memories")
    for column in (
        "mode",
        "pass",
        "inputs",
        "written",
        "calls/1k",
        "tokens/1k",
        "s/1k",
        "re-run calls",
        "re-run written",
    ):
        table.add_column(column, justify="right")
    for mode, result in results.items():
        n = result["memories"]
        for stage in STAGES:
            first, again = result[stage]["first"], result[stage]["again"]
            table.add_row(
                mode,
                stage,
                str(first["inputs"]),
                str(first["written"]),
                str(per_1000(first["calls"], n)),
                str(per_1000(first["tokens"], n)),
                str(per_1000(first["seconds"], n)),
                str(again["calls"]),
                str(again["written"]),
            )
    console = table_console()
    console.print(table)
    console.print(
        f"memories: offline {results['offline']['memories']}, model {results['model']['memories']}"
    )


if __name__ == "__main__":
    main()
