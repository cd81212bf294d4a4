"""Full-text recall through indexes that lead with the Context (migration 0021): each row's
document carries a lexeme naming its Context, and the lexical statements ask for it, so
the GIN index walks the caller's rows, not every Context's matches of a common word."""

from __future__ import annotations

from typing import Any

from memwarden.store.queries import q
from memwarden.store.recall import Reader, chunks_lexical
from memwarden.store.search import SearchFilter, lexical_statement
from tests.service import usecases
from tests.support.bulk_texts import load_texts
from tests.support.services import ServiceHarness

DIM = 384


def _plan(svc: ServiceHarness, name: str, params: dict[str, Any]) -> str:
    async def go() -> str:
        async with svc.services.db.connection() as conn:
            cur = await conn.execute("EXPLAIN " + q(name), params, prepare=False)
            return "\n".join(r["QUERY PLAN"] for r in await cur.fetchall())

    return svc.run(go())


def _leaves(svc: ServiceHarness, index: str) -> set[str]:
    """A partitioned index's names on each partition (what a plan names, migration 0022)."""

    async def go() -> set[str]:
        async with svc.services.db.connection() as conn:
            cur = await conn.execute(
                "SELECT relid::text AS name FROM pg_partition_tree(%s::regclass)", (index,)
            )
            return {r["name"] for r in await cur.fetchall()}

    return svc.run(go())


def _walks(plan: str, indexes: set[str]) -> bool:
    return any(f" on {name} " in plan or plan.endswith(f" on {name}") for name in indexes)


def test_full_text_over_records_and_chunks_walks_the_index_that_leads_with_the_context(
    svc: ServiceHarness,
) -> None:
    # A large Context whose rows all hold the word, and a smaller one where two rows do:
    # neither its thousand rows (the Context's btree) nor every Context's matches (a GIN
    # index on the words alone) need be read to find those two.
    big, small = svc.make_context(), svc.make_context()
    load_texts(
        svc, big, [f"the orchard keeps apple trees, row {n}" for n in range(3000)], chunks=True
    )
    pears = [f"a pear for later, number {n}" for n in range(1000)]
    load_texts(svc, small, ["an apple a day", "apple pie", *pears], chunks=True)
    where = SearchFilter(small.id, ("",), small.caller.subject)
    name, params = lexical_statement(where, "apple", 50)
    assert _walks(_plan(svc, name, params), _leaves(svc, "memory_record_context_tsv"))
    who = Reader(small.id, ("",), small.caller.subject)
    name, params = chunks_lexical(who, "apple", 50)
    assert _walks(_plan(svc, name, params), _leaves(svc, "chunk_context_tsv"))


def test_a_lexical_query_finds_its_own_contexts_matches_only(svc: ServiceHarness) -> None:
    mine, other = svc.make_context(), svc.make_context()
    load_texts(svc, other, [f"apple harvest {n}" for n in range(50)])
    wanted = load_texts(svc, mine, ["apple harvest in Lyon", "pear harvest in Porto"])
    hits = usecases.query(svc, mine, "apple", mode="lexical")
    assert {h["id"] for h in hits} == {str(wanted[0])}


def test_a_query_of_stop_words_only_matches_nothing(svc: ServiceHarness) -> None:
    # Its text-search query is empty; joined with the Context's lexeme it would ask for the
    # lexeme alone and match every row of the Context.
    ctx = svc.make_context()
    load_texts(svc, ctx, ["apple harvest in Lyon", "pear harvest in Porto"])
    assert usecases.query(svc, ctx, "the and of", mode="lexical") == []
