"""The export stream: a Context's memories as JSON Lines, page by page.

Each page is read on its own connection and rendered before the next is read, so a large
export holds no transaction open and its memory stays one page; the lines follow the
order an import needs (entities before the facts that name them, records before links).
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from memwarden.portability import lines
from memwarden.portability.service import ExportRequest
from memwarden.services import Services
from memwarden.store import portability as store
from memwarden.store.db import Conn

PAGE = 1000
"""Rows one page reads."""

Page = Callable[[Conn, uuid.UUID], Awaitable[list[dict[str, Any]]]]


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"


async def _walk(services: Services, page: Page) -> AsyncIterator[dict[str, Any]]:
    after = store.FIRST
    while True:
        async with services.db.connection() as conn:
            rows = await page(conn, after)
        for row in rows:
            yield row
        if len(rows) < PAGE:
            return
        after = rows[-1]["id"]


async def stream(
    services: Services, f: store.ExportFilter, request: ExportRequest
) -> AsyncGenerator[str, None]:
    """The lines of one export (`service.export_filter` checked who may ask first)."""
    counts: Counter[str] = Counter()
    covers = {
        "subject": f.subject,
        "scopes": list(f.scopes),
        "sessions": request.sessions,
        "include": list(request.include),
        "everything": f.everything,
    }
    yield _line(lines.header(f.context_id, covers, datetime.now(UTC)))
    for entities in (True, False):

        async def records(conn: Conn, after: uuid.UUID, e: bool = entities) -> list[Any]:
            return await store.records_page(conn, f, entities=e, after=after, limit=PAGE)

        async for row in _walk(services, records):
            counts["record"] += 1
            yield _line(lines.record(row))
    after_link = (store.FIRST, store.FIRST)
    while True:
        async with services.db.connection() as conn:
            rows = await store.links_page(conn, f, after_link, PAGE)
        for row in rows:
            counts["link"] += 1
            yield _line(lines.link(row))
        if len(rows) < PAGE:
            break
        after_link = (rows[-1]["record_lo"], rows[-1]["record_hi"])
    if request.sessions:
        seen: set[uuid.UUID] = set()

        async def turns(conn: Conn, after: uuid.UUID) -> list[Any]:
            return await store.turns_page(conn, f, after, PAGE)

        async for row in _walk(services, turns):
            if row["session_id"] not in seen:
                seen.add(row["session_id"])
                counts["session"] += 1
                yield _line(lines.session(row))
            counts["turn"] += 1
            yield _line(lines.turn(row))
    if "keys" in request.include:

        async def principals(conn: Conn, after: uuid.UUID) -> list[Any]:
            return await store.principals_page(conn, f.context_id, after, PAGE)

        async for row in _walk(services, principals):
            counts["principal"] += 1
            yield _line(lines.principal(row))
    if "judgements" in request.include:

        async def judgements(conn: Conn, after: uuid.UUID) -> list[Any]:
            return await store.judgements_page(conn, f, after, PAGE)

        async for row in _walk(services, judgements):
            counts["judgement"] += 1
            yield _line(lines.judgement(row))
    yield _line(lines.end(dict(counts)))
