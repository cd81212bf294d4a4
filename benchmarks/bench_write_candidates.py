"""What the supersede candidates cost a `/facts` write into a large Context.

One Context is bulk-loaded (COPY) with `--size` shared memories whose vectors are the local
embedder's vectors of short first-person facts ("Alice lives in Oslo"), so a new fact has
real neighbours in the hygiene band. Then `--writes` turns of ten facts each go
through `write_facts` with an instant extraction model (the rule extractor, its time
subtracted). Reported per write: the whole write (model time excluded), the candidates
step alone (its SQL statements counted by wrapping psycopg's execute, benchmark only),
the new records (entities included) and how many records and candidates it handed back.
Run: `python benchmarks/bench_write_candidates.py [--size 10000] [--writes 40] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
from _harness import STDERR, make_caller, percentile, services
from _tables import table_console
from bench_write import InstantModel
from psycopg.types.json import Jsonb
from rich.table import Table

from memwarden.domain.ids import new_id
from memwarden.embedding import embed_texts
from memwarden.pipeline import ingest
from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.usage import Bookings

NAMES = ["Alice", "Bruno", "Chen", "Dara", "Emeka", "Farah", "Gus", "Hana", "Ivo", "Jun"]
ROLES = ["engineer", "teacher", "nurse", "designer", "pilot", "chef", "lawyer", "CTO"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Soylent"]
CITIES = ["Oslo", "Lisbon", "Quito", "Hanoi", "Accra", "Lima", "Perth", "Riga"]
LIKES = ["jazz", "hiking", "ramen", "chess", "rust", "tea", "surfing", "opera", "cats"]
SURNAMES = ["Moreau", "Okafor", "Silva", "Novak", "Tanaka", "Berg", "Costa", "Haddad"]
COPY_TYPES = ["uuid", "uuid", "text", "text", "jsonb", "text", "text", "text", "int4"]
COPY_TYPES += ["vector", "int4"]
STATEMENTS = {"n": 0, "counting": False}


def _count(cls: Any, name: str) -> None:
    original = getattr(cls, name)

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        if STATEMENTS["counting"]:
            STATEMENTS["n"] += 1
        return await original(self, *args, **kwargs)

    setattr(cls, name, counted)


_count(psycopg.AsyncConnection, "execute")
_count(psycopg.AsyncCursor, "execute")


def loaded_bodies() -> list[str]:
    """Short facts about the people of the write benchmark, as record bodies."""
    out = [f"{n} — role: {r}" for n, r in itertools.product(NAMES, ROLES)]
    out += [f"{n} works at {o}" for n, o in itertools.product(NAMES, ORGS)]
    out += [f"{n} lives in {c}" for n, c in itertools.product(NAMES, CITIES)]
    out += [f"{n} — loves: {x}" for n, x in itertools.product(NAMES, LIKES)]
    return out


def turn(rng: random.Random, n: int) -> str:
    """Ten facts about a person no earlier write named (so all ten are new records): name,
    role, employer, home, origin, three likes, a dislike and a rule."""
    likes = rng.sample(LIKES, 4)
    name = f"{NAMES[n % len(NAMES)]} {SURNAMES[n // len(NAMES) % len(SURNAMES)]}"
    return (
        f"I'm {name}, {rng.choice(ROLES)} at {rng.choice(ORGS)}. "
        f"I live in {rng.choice(CITIES)}. I'm from {rng.choice(CITIES)}. "
        f"I love {likes[0]}. I enjoy {likes[1]}. I like {likes[2]}. I hate {likes[3]}. "
        f"Always answer {name} in bullet points."
    )


async def load(svc: Any, size: int, rng: random.Random) -> Any:
    caller = await make_caller(svc, f"candidates-{size}")
    bodies = loaded_bodies()
    vectors = [v for v in await embed_texts(svc, bodies, Bookings()) if v is not None]
    assert len(vectors) == len(bodies), "the local embedder is needed"
    async with svc.db.connection() as conn, conn.cursor() as cur:
        async with cur.copy(
            "COPY memory_record (context_id, id, kind, owner_subject, content, body, "
            "author_subject, source_kind, provenance_rank, embedding, embedding_revision) "
            "FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(COPY_TYPES)
            for n in range(size):
                pick = rng.randrange(len(bodies))
                content, body, vector = Jsonb({"n": n}), bodies[pick], list(vectors[pick])
                row = [caller.context_id, new_id(), "note", "bench", content, body, "bench"]
                await copy.write_row([*row, "turn", 1, vector, 1])
        await conn.execute("ANALYZE memory_record")
    return caller


async def measure(size: int, writes: int, warmup: int) -> dict[str, Any]:
    rng = random.Random(11)
    candidate_ms: list[float] = []
    statements: list[int] = []
    subjects: list[int] = []

    original = ingest.supersede_candidates

    async def timed(*args: Any, **kwargs: Any) -> Any:
        subjects.append(len(args[2]))
        STATEMENTS["n"], STATEMENTS["counting"] = 0, True
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            candidate_ms.append((time.perf_counter() - start) * 1000)
            statements.append(STATEMENTS["n"])
            STATEMENTS["counting"] = False

    ingest.supersede_candidates = timed  # type: ignore[assignment]
    async with services() as svc:
        model = InstantModel()
        svc.models.extraction = model  # type: ignore[assignment]
        caller = await load(svc, size, rng)
        write_ms: list[float] = []
        records: list[int] = []
        offered: list[int] = []
        for n in range(writes + warmup):
            t0, m0 = time.perf_counter(), model.seconds
            out = await write_facts(
                svc, caller, caller.context_id, FactsInput(turn(rng, n), "full")
            )
            elapsed = (time.perf_counter() - t0 - (model.seconds - m0)) * 1000
            if n >= warmup:
                write_ms.append(elapsed)
                found = out.supersedeCandidates or []
                records.append(len(found))
                offered.append(sum(len(e.candidates) for e in found))
    ingest.supersede_candidates = original  # type: ignore[assignment]
    measured = candidate_ms[warmup:]
    return {
        "memories": size,
        "writes": writes,
        "write_ms_p50": round(percentile(write_ms, 50), 1),
        "write_ms_p95": round(percentile(write_ms, 95), 1),
        "candidates_ms_p50": round(percentile(measured, 50), 1),
        "candidates_ms_p95": round(percentile(measured, 95), 1),
        "candidate_statements": round(sum(statements[warmup:]) / writes, 1),
        "new_records": round(sum(subjects[warmup:]) / writes, 1),
        "records_with_candidates": round(sum(records) / writes, 1),
        "candidates_per_write": round(sum(offered) / writes, 1),
        "load_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--writes", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    STDERR.print(f"{args.writes} writes of ~10 facts into a Context of {args.size:,}")
    row = asyncio.run(measure(args.size, args.writes, args.warmup))
    if args.json:
        print(json.dumps(row))
        return
    table = Table(title="/facts supersede candidates at one large Context")
    for column in row:
        table.add_column(column)
    table.add_row(*(str(v) for v in row.values()))
    table_console().print(table)


if __name__ == "__main__":
    main()
