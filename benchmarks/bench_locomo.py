"""LoCoMo evidence recall through the real write and recall paths.

Every turn of every conversation is written with /facts' service function (offline
default: rule extractor, local embedder), the session date prefixed ("[8 May, 2023]
Caroline: ..."), one Context per conversation and one memwarden session per LoCoMo
session, its turns in order (/query's window lists pair a turn with the one before it in
its session), each turn with its LoCoMo speaker as the write's `speaker` (a speaker the
question names is a preference: retrieval/speakers.py). Each category 1-4 question is then asked
with /query's service function in three modes; a hit counts for the turn it came from
(a chunk's turn, or the turn a memory record was extracted from). evidence recall@k is the
share of a question's evidence turns among the first k distinct turns, averaged, for all
questions, per LoCoMo category, and per split: fusion's weights were tuned on the first
five conversations ("tune") only, so the other five ("held out") show what tuning bought.
Run: `python benchmarks/bench_locomo.py [--limit-conversations 2] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, make_caller, peak_rss_mb, percentile, services
from _locomo import DATA, sessions, turn_text
from _tables import table_console
from rich.progress import Progress
from rich.table import Table

from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.retrieval.query import QueryInput, run_query

MODES = ("lexical", "vector", "hybrid")
KS = (5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
GROUPS = ("all", *CATEGORIES.values(), "tune", "held out")
TUNED_ON = 5  # conversations 1-5: what retrieval/fusion.py's weights were tuned on


def evidence(raw: list[str]) -> set[str]:
    """dia_ids, with packed ids split and zero-padded turn numbers fixed ("D30:05")."""
    out = set()
    for item in raw:
        for part in re.split(r"[;\s]+", item.strip()):
            match = re.fullmatch(r"D(\d+):(\d+)", part)
            if match:
                out.add(f"D{int(match[1])}:{int(match[2])}")
    return out


async def ingest(svc: Any, sample: dict[str, Any], progress: Progress, task: Any) -> tuple:
    caller = await make_caller(svc, sample["sample_id"])
    assert caller.context_id is not None
    by_turn: dict[str, str] = {}
    timings = []
    for _n, date, turns in sessions(sample["conversation"]):
        session: uuid.UUID | None = None  # one memwarden session per LoCoMo session
        for turn in turns:
            started = time.perf_counter()
            speaker = re.sub(r"[^A-Za-z0-9._:@-]", "_", turn["speaker"])  # an id's shape
            item = FactsInput(turn_text(date, turn), session_id=session, speaker=speaker)
            out = await write_facts(svc, caller, caller.context_id, item)
            timings.append((time.perf_counter() - started) * 1000)
            session = uuid.UUID(out.sessionId)
            by_turn[out.turnId] = turn["dia_id"]
            progress.advance(task)
    return caller, by_turn, timings


async def ask(
    svc: Any,
    caller: Any,
    by_turn: dict[str, str],
    question: str,
    mode: str,
    kinds: list[str] | None,
) -> tuple[list[str], float]:
    started = time.perf_counter()
    req = QueryInput(question, limit=60, mode=mode, kinds=kinds)  # type: ignore[arg-type]
    result = await run_query(svc, caller, caller.context_id, req)
    elapsed = (time.perf_counter() - started) * 1000
    ranked: list[str] = []
    for hit in result.hits:
        dia = by_turn.get(hit.source.ref or "")
        if dia and dia not in ranked:
            ranked.append(dia)
    return ranked, elapsed


def _means(scores: dict[int, list[float]]) -> dict[str, float]:
    return {f"@{k}": round(statistics.fmean(v), 4) for k, v in scores.items() if v}


async def run(limit: int | None, kinds: list[str] | None) -> dict[str, Any]:
    data = json.loads(DATA.read_text())[:limit]
    # scores[group][mode][k]: group is "all", a category's name, "tune" or "held out"
    scores: dict[str, dict[str, dict[int, list[float]]]] = {}
    latency: dict[str, list[float]] = {m: [] for m in MODES}
    write_ms: list[float] = []
    questions = [q for s in data for q in s["qa"] if q["category"] in (1, 2, 3, 4)]
    total_turns = sum(len(t) for s in data for _n, _d, t in sessions(s["conversation"]))
    async with services() as svc:
        with Progress(console=STDERR) as progress:
            writing = progress.add_task("ingesting turns", total=total_turns)
            asking = progress.add_task("asking questions", total=len(questions) * len(MODES))
            for n, sample in enumerate(data):
                caller, by_turn, timings = await ingest(svc, sample, progress, writing)
                write_ms += timings
                split = "tune" if n < TUNED_ON else "held out"
                for qa in sample["qa"]:
                    want = evidence(qa.get("evidence", []))
                    if qa["category"] not in (1, 2, 3, 4):
                        continue
                    for mode in MODES:
                        progress.advance(asking)
                        if not want:
                            continue
                        ranked, ms = await ask(svc, caller, by_turn, qa["question"], mode, kinds)
                        latency[mode].append(ms)
                        for group in ("all", CATEGORIES[qa["category"]], split):
                            by_k = scores.setdefault(group, {}).setdefault(
                                mode, {k: [] for k in KS}
                            )
                            for k in KS:
                                by_k[k].append(len(want & set(ranked[:k])) / len(want))
    return {
        "conversations": len(data),
        "turns": total_turns,
        "questions": len(scores.get("all", {}).get("hybrid", {10: []})[10]),
        "recall": {m: _means(s) for m, s in scores.get("all", {}).items()},
        "recall_by_group": {
            g: {
                "questions": len(by_mode["hybrid"][10]),
                **{m: _means(s) for m, s in by_mode.items()},
            }
            for g, by_mode in sorted(scores.items(), key=lambda kv: GROUPS.index(kv[0]))
            if g != "all"
        },
        "query_ms_p50": {m: round(statistics.median(v), 2) for m, v in latency.items()},
        "query_ms_p95": {m: round(percentile(v, 95), 2) for m, v in latency.items()},
        "write_ms_p50": round(statistics.median(write_ms), 2),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument(
        "--chunks-only",
        action="store_true",
        help="search turn chunks only, not the extracted memory records",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.limit_conversations, ["chunk"] if args.chunks_only else None))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    table = Table(
        title=f"LoCoMo evidence recall, categories 1-4 ({result['questions']} "
        f"questions, {result['turns']} turns, {result['conversations']} "
        "conversations)"
    )
    for column in ("mode", "recall@5", "recall@10", "recall@20", "query p50 / p95 ms"):
        table.add_column(column, justify="right")
    for mode in MODES:
        r = result["recall"][mode]
        ms = f"{result['query_ms_p50'][mode]} / {result['query_ms_p95'][mode]}"
        table.add_row(mode, str(r["@5"]), str(r["@10"]), str(r["@20"]), ms)
    groups = Table(title="per category and split (recall@5 / @10 / @20)")
    for column in ("group", "questions", *MODES):
        groups.add_column(column, justify="right")
    for group, row in result["recall_by_group"].items():
        cells = [" / ".join(str(row[m][f"@{k}"]) for k in KS) for m in MODES]
        groups.add_row(group, str(row["questions"]), *cells)
    console = table_console()
    console.print(table)
    console.print(groups)
    console.print(f"write p50 {result['write_ms_p50']} ms per turn")


if __name__ == "__main__":
    main()
