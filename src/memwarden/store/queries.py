"""Named SQL blocks loaded from `queries/*.sql` (`-- name --` headers), as procrastinate does."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_HEADER = re.compile(r"^--\s*([a-z0-9_]+)\s*--\s*$", re.MULTILINE)


def parse_blocks(text: str) -> dict[str, str]:
    """Split a file into {name: sql}; a later duplicate name is an error."""
    parts = _HEADER.split(text)
    blocks: dict[str, str] = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        if name in blocks:
            raise ValueError(f"duplicate query block {name!r}")
        sql = body.strip()
        if sql:
            blocks[name] = sql
    return blocks


@cache
def all_queries() -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = resources.files("memwarden.store") / "queries"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".sql"):
            continue
        for name, sql in parse_blocks(entry.read_text(encoding="utf-8")).items():
            if name in merged:
                raise ValueError(f"query block {name!r} defined twice")
            merged[name] = sql
    return merged


def q(name: str) -> str:
    """The SQL of one named block."""
    return all_queries()[name]


# Statements planned at every call rather than prepared: a generic plan cannot use a
# per-Context partial index (store/vector_index.py), so a prepared one would scan large
# Contexts exactly.
UNPREPARED = frozenset({"search_vector", "recall_chunks_vector"})

# /query's prepared statements on the tables partitioned by Context (migration 0022). One
# generic plan serves every Context: run-time pruning keeps the caller's partition. Left
# to itself, the plan cache prices that plan over all 16 partitions against a custom plan
# over one and plans at every call instead (about 0.3 ms a statement), so run_all asks for
# the generic plan while these run (store/batch.py).
GENERIC = frozenset(
    {
        "search_lexical",
        "search_vector_exact",
        "recall_chunks_lexical",
        "recall_chunks_vector_exact",
        "recall_history_lexical",
        "recall_history_vector",
        "recall_record_rows",
        "recall_chunk_rows",
    }
)


def prepare_flag(name: str) -> bool | None:
    """psycopg's `prepare` argument for a block: False for UNPREPARED, else its default."""
    return False if name in UNPREPARED else None
