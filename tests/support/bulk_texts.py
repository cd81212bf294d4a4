"""Records (and one chunk each) bulk-loaded from texts with random vectors, for tests that
need many rows in a Context without going through the write path."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from memwarden.domain.ids import new_id
from memwarden.store.bulk import BulkRecord, copy_chunks, copy_records
from tests.support.services import ServiceHarness

DIM = 384


def load_texts(
    svc: ServiceHarness,
    ctx: Any,
    bodies: list[str],
    *,
    chunks: bool = False,
    kind: str = "attribute",
) -> list[uuid.UUID]:
    """Records of `kind` holding `bodies` (and, with `chunks`, one chunk each), analysed so
    plans see them; the records' ids."""
    rng = np.random.default_rng(len(bodies))
    vectors = rng.standard_normal((len(bodies), DIM)).astype(np.float32)
    rows = [BulkRecord(new_id(), kind, b, v) for b, v in zip(bodies, vectors, strict=True)]

    async def go() -> None:
        assert ctx.caller.principal_id is not None
        async with svc.services.db.transaction() as conn:
            await copy_records(conn, ctx.id, rows)
            if chunks:
                texts = zip(bodies, vectors, strict=True)
                await copy_chunks(conn, ctx.id, ctx.caller.principal_id, texts)
            await conn.execute("ANALYZE memory_record")
            await conn.execute("ANALYZE chunk")

    svc.run(go())
    return [r.id for r in rows]
