"""MemwardenStore: LangGraph's BaseStore on the memory contract, against a live server."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    PutOp,
    SearchOp,
)
from memwarden_client import Memwarden
from memwarden_client.integrations.langgraph import MemwardenStore

from tests.clients.adapters.conftest import Ctx
from tests.support.scripted_model import fake_embedding


def test_a_put_value_comes_back_from_get_whole_and_as_a_note_under_the_namespace_scope(
    mw: Memwarden,
) -> None:
    store = MemwardenStore(mw)
    value = {"food": "pizza", "rating": 4.5, "tags": ["cheese", "oven"], "nested": {"a": None}}
    store.put(("users", "alice"), "favourite", value)
    item = store.get(("users", "alice"), "favourite")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (("users", "alice"), "favourite", value)
    (hit,) = mw.memory.search(scope={"project_id": "users/alice", "visibility": "shared"}).hits
    assert hit.record.kind == "note" and hit.record.scope.path == "project/users/alice"
    assert store.get(("users", "bob"), "favourite") is None
    assert store.get(("users",), "favourite") is None


def test_a_second_put_updates_the_same_record_at_its_revision_and_delete_stops_serving_it(
    mw: Memwarden,
) -> None:
    store = MemwardenStore(mw)
    store.put(("users", "alice"), "k", {"v": 1})
    first = store.get(("users", "alice"), "k")
    store.put(("users", "alice"), "k", {"v": 2})
    (hit,) = mw.memory.search(scope={"project_id": "users/alice", "visibility": "shared"}).hits
    assert hit.record.revision == 2
    second = store.get(("users", "alice"), "k")
    assert first is not None and second is not None
    assert second.value == {"v": 2} and second.created_at == first.created_at
    store.delete(("users", "alice"), "k")
    assert store.get(("users", "alice"), "k") is None
    store.put(("users", "alice"), "k", {"v": 3})  # a deleted key can be put again
    again = store.get(("users", "alice"), "k")
    assert again is not None and again.value == {"v": 3}


def test_one_batch_runs_its_ops_in_order_and_answers_each(mw: Memwarden) -> None:
    store = MemwardenStore(mw)
    ns = ("u1", "memories")
    put, got, found, listed, deleted, gone = store.batch(
        [
            PutOp(ns, "k", {"v": 1}),
            GetOp(ns, "k"),
            SearchOp(("u1",)),
            ListNamespacesOp(),
            PutOp(ns, "k", None),
            GetOp(ns, "k"),
        ]
    )
    assert put is None and deleted is None and gone is None
    assert isinstance(got, Item) and got.value == {"v": 1}
    assert isinstance(found, list) and [i.key for i in found] == ["k"]
    assert listed == [ns]


def test_search_finds_by_words_within_the_prefix_and_applies_the_filter(mw: Memwarden) -> None:
    store = MemwardenStore(mw)
    store.put(("alice", "memories"), "1", {"text": "likes green tea", "score": 3})
    store.put(("alice", "memories"), "2", {"text": "plays the cello", "score": 5})
    store.put(("alice", "trips"), "3", {"text": "went to Oslo for tea", "score": 4})
    store.put(("bob", "memories"), "4", {"text": "likes tea too", "score": 5})
    hits = store.search(("alice",), query="what tea does she drink?")
    assert {h.key for h in hits} == {"1", "3"} and all(h.score for h in hits)
    assert [h.key for h in store.search(("alice",), filter={"score": {"$gte": 4}})] == ["3", "2"]
    assert [h.key for h in store.search(("alice", "memories"), filter={"score": 5})] == ["2"]
    assert len(store.search((), limit=2)) == 2 and len(store.search((), offset=3)) == 1


def test_list_namespaces_honours_prefix_suffix_depth_and_paging(mw: Memwarden) -> None:
    store = MemwardenStore(mw)
    for namespace in [("a", "b", "c"), ("a", "b", "d"), ("a", "x"), ("z", "b")]:
        store.put(namespace, "k", {"n": 1})
    assert store.list_namespaces() == [("a", "b", "c"), ("a", "b", "d"), ("a", "x"), ("z", "b")]
    assert store.list_namespaces(prefix=("a", "b")) == [("a", "b", "c"), ("a", "b", "d")]
    assert store.list_namespaces(suffix=("b",)) == [("z", "b")]
    assert store.list_namespaces(prefix=("*", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("z", "b"),
    ]
    assert store.list_namespaces(max_depth=2) == [("a", "b"), ("a", "x"), ("z", "b")]
    assert store.list_namespaces(limit=1, offset=1) == [("a", "b", "d")]


def test_a_listing_past_one_searchs_reach_reads_every_note_the_change_feed_names(
    mw: Memwarden,
) -> None:
    store = MemwardenStore(mw)
    store.listing_limit = 2  # the search answers at most 2: the feed is read instead
    for namespace in [("a", "1"), ("a", "2"), ("a", "3"), ("b", "1")]:
        store.put(namespace, "k", {"n": 1})
    store.delete(("a", "2"), "k")
    assert store.list_namespaces(prefix=("a",)) == [("a", "1"), ("a", "3")]
    assert store.list_namespaces() == [("a", "1"), ("a", "3"), ("b", "1")]


def test_a_ttl_is_the_expiry_moved_on_by_reads_and_cleared_by_a_put_without_one(
    mw: Memwarden,
) -> None:
    store = MemwardenStore(mw)
    scope = {"project_id": "users/alice", "visibility": "shared"}
    store.put(("users", "alice"), "short", {"v": 1}, ttl=10)
    (before,) = mw.memory.search(scope=scope).hits
    assert before.record.expires_at is not None
    store.get(("users", "alice"), "short", refresh_ttl=False)
    (unchanged,) = mw.memory.search(scope=scope).hits
    assert unchanged.record.revision == before.record.revision
    store.get(("users", "alice"), "short")
    (after,) = mw.memory.search(scope=scope).hits
    assert after.record.revision == before.record.revision + 1
    assert str(after.record.expires_at) > str(before.record.expires_at)
    store.put(("users", "alice"), "short", {"v": 2}, ttl=None)
    (cleared,) = mw.memory.search(scope=scope).hits
    assert cleared.record.expires_at is None


def test_a_namespace_that_is_no_scope_path_is_refused_before_any_request() -> None:
    nowhere = Memwarden("http://127.0.0.1:9", "mwk_unused", max_retries=0)
    store = MemwardenStore(nowhere)
    with pytest.raises(InvalidNamespaceError):
        store.put(("users", "alice smith"), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.search(("a.b",))
    nowhere.close()


def fake_embed(texts: list[str]) -> list[list[float]]:
    return [fake_embedding(text, 384) for text in texts]


def test_with_an_embedding_index_search_is_hybrid_and_finds_by_vector_what_no_word_matches(
    mw: Memwarden,
) -> None:
    store = MemwardenStore(mw, index={"dims": 384, "embed": fake_embed, "fields": ["text"]})
    store.put(("docs",), "a", {"text": "sunrise over fjords"})
    store.put(("docs",), "b", {"text": "quarterly tax forms"})
    scope = {"project_id": "docs", "visibility": "shared"}
    answer = mw.memory.search(scope=scope, query="sunrise", vector=fake_embed(["x"])[0])
    assert answer.mode == "hybrid" and len(answer.hits) == 2  # both carry a vector
    hits = store.search(("docs",), query="sunrise over fjords")
    assert [h.key for h in hits] == ["a", "b"]  # b by its vector alone


def test_private_items_are_invisible_to_another_subject(ctx: Ctx, make_key: Any) -> None:
    other = make_key(ctx.id, ["memory_read", "memory_write"], subject="bob")
    with ctx.client() as alice, Memwarden(ctx.url, other, context_id=ctx.id) as bob:
        MemwardenStore(alice, visibility="private").put(("notes",), "k", {"secret": "mine"})
        assert MemwardenStore(bob, visibility="private").get(("notes",), "k") is None
        assert MemwardenStore(alice, visibility="private").get(("notes",), "k") is not None


def test_abatch_with_the_async_client_does_what_batch_does(ctx: Ctx) -> None:
    async def scenario() -> tuple[Any, Any, list[Any]]:
        async with ctx.async_client() as client:
            store = MemwardenStore(async_client=client)
            await store.aput(("u1", "memories"), "k", {"food": "ramen"})
            got = await store.aget(("u1", "memories"), "k")
            hits = await store.asearch(("u1",), query="ramen")
            await store.adelete(("u1", "memories"), "k")
            return got, await store.aget(("u1", "memories"), "k"), hits

    got, gone, hits = asyncio.run(scenario())
    assert got.value == {"food": "ramen"} and gone is None and [h.key for h in hits] == ["k"]


def test_concurrent_puts_of_a_new_key_make_one_note_holding_one_of_the_values(
    ctx: Ctx, mw: Memwarden
) -> None:
    async def race() -> None:
        async with ctx.async_client() as a, ctx.async_client() as b:
            await asyncio.gather(
                *[
                    MemwardenStore(async_client=client).aput(("race",), "k", {"by": name})
                    for client, name in [(a, "a"), (b, "b"), (a, "c"), (b, "d")]
                ]
            )

    asyncio.run(race())
    hits = mw.memory.search(scope={"project_id": "race", "visibility": "shared"}).hits
    assert len(hits) == 1
    item = MemwardenStore(mw).get(("race",), "k")
    assert item is not None and item.value["by"] in {"a", "b", "c", "d"}


class State(TypedDict, total=False):
    user_id: str
    said: str
    answers: Annotated[list[str], operator.add]


def remember_or_recall(state: State, *, store: BaseStore) -> dict[str, Any]:
    namespace = (state["user_id"], "memories")
    said = state["said"]
    if said.startswith("remember: "):
        fact = said.removeprefix("remember: ")
        store.put(namespace, f"fact-{len(fact)}", {"fact": fact})
        return {"answers": [f"noted: {fact}"]}
    hits = store.search(namespace, query=said)
    return {"answers": [hit.value["fact"] for hit in hits] or ["nothing"]}


def test_a_compiled_graph_remembers_in_one_thread_what_another_thread_recalls(
    mw: Memwarden,
) -> None:
    builder = StateGraph(State)
    builder.add_node("memory", remember_or_recall)
    builder.add_edge(START, "memory")
    builder.add_edge("memory", END)
    graph = builder.compile(checkpointer=InMemorySaver(), store=MemwardenStore(mw))
    first: RunnableConfig = {"configurable": {"thread_id": "thread-1"}}
    second: RunnableConfig = {"configurable": {"thread_id": "thread-2"}}
    graph.invoke({"user_id": "alice", "said": "remember: Alice drinks green tea"}, first)
    out = graph.invoke({"user_id": "alice", "said": "what does she drink? tea?"}, second)
    assert out["answers"] == ["Alice drinks green tea"]
    third: RunnableConfig = {"configurable": {"thread_id": "thread-3"}}
    other = graph.invoke({"user_id": "bob", "said": "tea?"}, third)
    assert other["answers"] == ["nothing"]
