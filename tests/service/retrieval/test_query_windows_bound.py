"""The full-text window list reads every chunk of the threads holding a match, so it runs
only where a Context's chunks are scanned exactly (below the vector index threshold); a
Context large enough for its own chunk index ranks its chunks by their own words, as its
vector list does (retrieval/query.py's lexical_candidates)."""

from __future__ import annotations

import uuid

import numpy as np

from memwarden.retrieval.indexing import index_large_contexts
from tests.service.retrieval.test_query_windows import QUESTION, REPLY, _texts, _turn
from tests.service.retrieval.test_vector_index import DIM, _load, _unit
from tests.service.usecases import query
from tests.support.services import ServiceHarness


def test_a_context_with_its_own_chunk_index_ranks_chunks_by_their_own_words_only(
    svc: ServiceHarness,
) -> None:
    small, large = svc.make_context(), svc.make_context()
    for ctx in (small, large):
        session = _turn(svc, ctx, QUESTION)
        _turn(svc, ctx, REPLY, uuid.UUID(session))
    rng = np.random.default_rng(3)
    _load(svc, large.id, _unit(rng.standard_normal((60, DIM))), "attribute")
    assert svc.run(index_large_contexts(svc.services.db, threshold=50)) == [large.id]
    assert _texts(query(svc, small, "hobbies lately", mode="lexical")) == [QUESTION, REPLY]
    assert _texts(query(svc, large, "hobbies lately", mode="lexical")) == [QUESTION]
