"""How full-text ranks matches of a query's words (joined with `or` by recall and search).

A text that holds more of the words ranks above one that repeats a single word: the
score (ts_rank) averages over the query's words with diminishing returns for repeats.
Cover density (ts_rank_cd, used before) counts every occurrence of any word alike, so it
put "coffee coffee coffee" above "coffee and tea" for "coffee tea"; ts_rank is also the
cheaper of the two per matching row (docs/benchmarks.md, "Full-text ranking")."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.retrieval.query import or_query
from memwarden.retrieval.search import search_memory
from memwarden.store.queries import q
from memwarden.store.recall import Reader, chunks_lexical
from tests.service import usecases
from tests.support.bulk_texts import load_texts
from tests.support.services import ServiceHarness

TEXTS = [
    "coffee coffee coffee, always coffee in the morning",
    "coffee and tea on the terrace at noon",
    "a walk along the river",
]


def _rows(svc: ServiceHarness, name: str, params: dict[str, Any]) -> list[uuid.UUID]:
    async def go() -> list[uuid.UUID]:
        async with svc.services.db.connection() as conn:
            cur = await conn.execute(q(name), params)
            return [r["id"] for r in await cur.fetchall()]

    return svc.run(go())


def test_a_memory_holding_more_of_the_words_outranks_one_repeating_a_single_word(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    repeats, both, _ = load_texts(svc, ctx, TEXTS)
    hits = usecases.query(svc, ctx, "coffee tea", mode="lexical")
    assert [h["id"] for h in hits] == [str(both), str(repeats)]

    async def search() -> list[uuid.UUID]:
        async with svc.services.db.connection() as conn:
            found = await search_memory(
                conn,
                context_id=ctx.id,
                prefixes=("",),
                subject=ctx.caller.subject,
                query="coffee or tea",
            )
            return [h.record_id for h in found.hits]

    assert svc.run(search()) == [both, repeats]


def test_a_chunk_holding_more_of_the_words_outranks_one_repeating_a_single_word(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    load_texts(svc, ctx, TEXTS, chunks=True)
    who = Reader(ctx.id, ("",), ctx.caller.subject)
    ranked = _rows(svc, *chunks_lexical(who, or_query("coffee tea"), 10))
    texts = {r["id"]: r["text"] for r in _chunk_texts(svc, ctx.id)}
    assert [texts[i] for i in ranked] == TEXTS[1::-1]


def _chunk_texts(svc: ServiceHarness, context_id: uuid.UUID) -> list[dict[str, Any]]:
    async def go() -> list[dict[str, Any]]:
        async with svc.services.db.connection() as conn:
            cur = await conn.execute(
                "SELECT id, text FROM chunk WHERE context_id = %s", (context_id,)
            )
            return list(await cur.fetchall())

    return svc.run(go())
