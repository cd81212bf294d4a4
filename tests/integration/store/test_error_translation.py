"""Database errors leave store/ as the store's own exceptions: no caller imports psycopg."""

from __future__ import annotations

import asyncio

import pytest

from memwarden.domain.ids import new_id
from memwarden.store import admin
from memwarden.store.db import Database
from memwarden.store.errors import DuplicateRow


def test_a_unique_violation_in_a_transaction_is_raised_as_duplicate_row(db_url: str) -> None:
    async def go() -> None:
        db = Database(db_url)
        await db.open()
        try:
            cid = new_id()
            async with db.transaction() as conn:
                await admin.insert_context(conn, cid, "first", {})
            with pytest.raises(DuplicateRow) as caught:
                async with db.transaction() as conn:
                    await admin.insert_context(conn, cid, "again", {})
            assert caught.value.constraint == "context_pkey"
            with pytest.raises(DuplicateRow):
                async with db.connection() as conn:
                    await admin.insert_context(conn, cid, "autocommit", {})
        finally:
            await db.close()

    asyncio.run(go())
