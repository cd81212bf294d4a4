"""Per-Context partial HNSW indexes over memory_record.embedding.

A Context with its own index (`memory_record_vec_<context id hex>`, `chunk_vec_<hex>`) is
searched by `search_vector` / `recall_chunks_vector`, which walk it with pgvector's iterative
scan and fall back to an exact scan should the walk leave fewer than `limit` eligible rows;
one without is searched by the `_exact` statements, which are prepared. `profile` tells
which a Context has and how large each index is (the walk depth follows the size).
Indexes are built CONCURRENTLY (writes go on), outside any transaction, each on the partition
of its table that holds the Context (migration 0022).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from psycopg import sql

from memwarden.store.batch import Statement
from memwarden.store.db import Conn, idle
from memwarden.store.queries import q

PREFIX = "memory_record_vec_"
CHUNK_PREFIX = "chunk_vec_"


def index_name(context_id: uuid.UUID) -> str:
    return f"{PREFIX}{context_id.hex}"


def chunk_index_name(context_id: uuid.UUID) -> str:
    return f"{CHUNK_PREFIX}{context_id.hex}"


async def contexts_needing_index(conn: Conn, threshold: int) -> list[uuid.UUID]:
    """Contexts with at least `threshold` embedded records and no valid index of their own
    (the count, which stops at `threshold`, made per Context lacking an index)."""
    cur = await conn.execute(q("contexts_needing_vector_index"))
    lacking = [row["context_id"] for row in await cur.fetchall()]
    return [cid for cid in lacking if (await profile(conn, cid, threshold)).due]


async def indexes(conn: Conn) -> dict[str, bool]:
    """Every per-Context vector index: name and whether it is valid (built)."""
    cur = await conn.execute(q("context_vector_indexes"))
    return {row["name"]: row["valid"] for row in await cur.fetchall()}


async def build_index(conn: Conn, context_id: uuid.UUID) -> str:
    """Build (or rebuild, after an interrupted build left one invalid) one Context's record
    and chunk indexes; the record index's name. The builds run without the pool's statement
    timeout (a large Context's build takes minutes; cut at 30 s it would leave an invalid
    index to be dropped and cut again at every try), restored afterwards."""
    if not idle(conn):
        raise RuntimeError("a vector index is built outside any transaction")
    cur = await conn.execute(q("set_statement_timeout"), {"timeout": "0"})
    saved = await cur.fetchone()
    try:
        await _build(conn, context_id)
    finally:
        assert saved is not None
        await conn.execute(q("set_statement_timeout"), {"timeout": saved["previous"]})
    return index_name(context_id)


async def _build(conn: Conn, context_id: uuid.UUID) -> None:
    known = await indexes(conn)
    for block, name in (
        ("create_context_vector_index", index_name(context_id)),
        ("create_context_chunk_index", chunk_index_name(context_id)),
    ):
        table = "memory_record" if block == "create_context_vector_index" else "chunk"
        if known.get(name) is False:
            drop = sql.SQL(q("drop_context_vector_index"))
            await conn.execute(drop.format(name=sql.Identifier(name)))
        create = sql.SQL(q(block)).format(
            name=sql.Identifier(name),
            table=sql.Identifier(await partition(conn, table, context_id)),
            context_id=sql.Literal(str(context_id)),
        )
        await conn.execute(create)


async def partition(conn: Conn, table: str, context_id: uuid.UUID) -> str:
    """The partition of `table` that holds the Context's rows (the table itself where it is
    not partitioned), where its own index belongs: planning then weighs it only for the
    Contexts of that partition."""
    cur = await conn.execute(q("context_partition"), {"table": table, "context_id": context_id})
    row = await cur.fetchone()
    return str(row["name"]) if row is not None else table


@dataclass(frozen=True)
class VectorProfile:
    """A Context's own vector indexes: rows in each (reltuples; -1 before the first vacuum),
    None where it has no valid index, so its statements scan exactly; `due` when one is
    missing and the Context has reached the threshold it was read with."""

    records: float | None
    chunks: float | None
    due: bool = False


async def profile(conn: Conn, context_id: uuid.UUID, threshold: int | None = None) -> VectorProfile:
    """The Context's indexes; with `threshold`, also whether it has grown past it without
    them (a count that stops at `threshold`, made only when an index is missing)."""
    params = {
        "records": index_name(context_id),
        "chunks": chunk_index_name(context_id),
        "context_id": context_id,
        "threshold": threshold,
    }
    cur = await conn.execute(q("context_vector_profile"), params)
    row = await cur.fetchone()
    assert row is not None
    return VectorProfile(row["records"], row["chunks"], bool(row["due"]))


async def has_indexes(conn: Conn, context_id: uuid.UUID) -> bool:
    """Whether both of the Context's own indexes are built and valid."""
    found = await profile(conn, context_id)
    return found.records is not None and found.chunks is not None


def walk_depth(ef_search: int) -> Statement:
    """The statement that sets how many candidates the walks after it keep per step."""
    return "set_walk_depth", {"ef_search": str(ef_search)}
