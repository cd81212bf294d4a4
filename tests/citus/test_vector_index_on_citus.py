"""Per-Context vector indexes on Citus: the index job finds a Context past the threshold,
builds its partial HNSW index on the Context's partition (Citus makes it on every shard of
that partition), a Context's vector search on the worker walks it, and the walk finds the
exact nearest records. The contract tests of tests/service/retrieval/test_vector_index."""

from __future__ import annotations

from tests.service.conftest import svc  # noqa: F401
from tests.service.retrieval.test_vector_index import (  # noqa: F401
    test_a_context_past_the_threshold_gets_its_own_index_and_a_small_one_does_not,
    test_an_indexed_search_finds_the_exact_nearest_records,
)
