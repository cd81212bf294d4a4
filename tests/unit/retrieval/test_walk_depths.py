"""retrieval/query.py: the walk-depth settings sent before /query's index walks."""

from __future__ import annotations

import uuid

import pytest

from memwarden.retrieval.query import QueryInput, dense_candidates, query_plan
from memwarden.retrieval.vector_plan import VectorPlan, walk_depth_for
from memwarden.store.batch import Statement
from memwarden.store.recall import Reader
from memwarden.store.vector_index import walk_depth

WHO = Reader(uuid.uuid4(), ("",), "alice")
VECTOR = [0.0] * 384


def _depths(req: QueryInput, ann: VectorPlan) -> list[str]:
    """The ef_search values set, in order, and where each list's walk comes."""
    sent = []
    for chunks, (name, params) in dense_candidates(WHO, query_plan(WHO, req), VECTOR, ann):
        sent.append(params["ef_search"] if chunks is None else name)
    return sent


def _plan(records: int | None, chunks: int | None) -> VectorPlan:
    def depth(rows: int | None) -> Statement | None:
        return None if rows is None else walk_depth(walk_depth_for(rows))

    return VectorPlan(records is not None, chunks is not None, depth(records), depth(chunks))


def test_a_chunk_walk_at_the_record_walks_depth_sends_no_second_setting() -> None:
    sent = _depths(QueryInput("q"), _plan(10_000, 8_000))
    assert sent == ["100", "search_vector", "recall_chunks_vector"]


def test_a_chunk_walk_at_another_depth_sets_its_own_before_it() -> None:
    sent = _depths(QueryInput("q"), _plan(100_000, 8_000))
    assert sent == ["400", "search_vector", "100", "recall_chunks_vector"]


@pytest.mark.parametrize("records", [None, 100_000])
def test_a_chunk_walk_without_a_record_walk_before_it_sets_its_depth(records: int | None) -> None:
    chunks_only = QueryInput("q", kinds=["chunk"])
    assert _depths(chunks_only, _plan(records, 8_000)) == ["100", "recall_chunks_vector"]
