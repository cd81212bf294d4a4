"""Typed rows: a named block's rows built straight into a dataclass (psycopg `class_row`),
so callers read `row.subject`, not `row["subject"]`."""

from __future__ import annotations

from typing import Any, TypeVar

from psycopg.rows import class_row

from memwarden.store.db import Conn
from memwarden.store.queries import prepare_flag, q

T = TypeVar("T")


async def fetch_one(conn: Conn, name: str, row: type[T], params: dict[str, Any]) -> T | None:
    async with conn.cursor(row_factory=class_row(row)) as cur:
        await cur.execute(q(name), params)
        return await cur.fetchone()


async def fetch_all(conn: Conn, name: str, row: type[T], params: dict[str, Any]) -> list[T]:
    async with conn.cursor(row_factory=class_row(row)) as cur:
        await cur.execute(q(name), params, prepare=prepare_flag(name))
        return await cur.fetchall()
