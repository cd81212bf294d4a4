"""One text item (a mem0 memory, a line of texts) written as a turn is: the same gates,
extraction and reconciliation as POST /facts/batch, in the scope the import names (a mem0
memory's `user_id` adds `user/<id>`, so first person is that end user).

Its records keep `source_kind = 'import'`, the import's source directory and the item's
original time (their creation and the start of their validity); the turn its time too.
The write, the stamp and the item's outcome commit in one transaction.
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import datetime
from typing import Any

from memwarden.domain.grants import Caller
from memwarden.domain.scope import Visibility
from memwarden.errors import AppError
from memwarden.pipeline import commit
from memwarden.pipeline.ingest import FactsInput, PreparedFacts, prepare_facts
from memwarden.services import Services
from memwarden.store import portability as store
from memwarden.store.db import Conn

SOURCE_KIND = "import"


def _scope(base: str, user: str | None) -> list[str] | None:
    parts = [p for p in (base, f"user/{user}" if user else "") if p]
    return ["/".join(parts)] if parts else None


async def prepare(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    base_scope: str,
    visibility: Visibility,
    payload: dict[str, Any],
) -> PreparedFacts | AppError:
    """The item judged, extracted and embedded (no transaction open), or its refusal."""
    item = FactsInput(
        payload["text"], scope=_scope(base_scope, payload.get("user")), visibility=visibility
    )
    try:
        prepared = await prepare_facts(services, caller, context_id, item, "facts_batch")
    except AppError as exc:
        return exc
    meta = dataclasses.replace(prepared.write.meta, source_kind=SOURCE_KIND)
    prepared.write = dataclasses.replace(prepared.write, meta=meta, action="import.write")
    return prepared


async def write(
    conn: Conn,
    prepared: PreparedFacts,
    context_id: uuid.UUID,
    source_dir: str,
    payload: dict[str, Any],
) -> tuple[str, uuid.UUID | None]:
    """The prepared write in `conn`'s transaction, stamped: its outcome and first record."""
    await prepared.commit(conn)
    at = datetime.fromisoformat(payload["at"]) if payload.get("at") else None
    ids = await store.stamp_turn_records(conn, context_id, prepared.turn_id, source_dir, at)
    written = prepared.written
    held = written is not None and written.write_hold is not None
    return ("held" if held else "imported"), (ids[0] if ids else None)


async def after(services: Services, context_id: uuid.UUID, prepared: PreparedFacts) -> None:
    """After the commit: hygiene scans the new records, as after any write."""
    if prepared.written is not None:
        await commit.scan_after(services, context_id, prepared.written)
