"""Recall statements over a chunk together with the chunk before it in its thread (SQL in
queries/window.sql; retrieval/fusion.py says why /query uses them)."""

from __future__ import annotations

from collections.abc import Sequence

from pgvector import Vector

from memwarden.store.batch import Statement
from memwarden.store.recall import MATCH_CAP, Reader


def chunks_lexical_window(who: Reader, query: str, limit: int) -> Statement:
    """Chunks ranked by the query's words in their own text and the previous chunk's."""
    return "recall_chunks_lexical_window", who.params(query=query, limit=limit, match_cap=MATCH_CAP)


def chunks_vector_window(who: Reader, vector: Sequence[float], limit: int) -> Statement:
    """Chunks of a Context without a chunk index, nearest by their embedding plus the
    previous chunk's (an exact scan, as recall_chunks_vector_exact)."""
    return "recall_chunks_vector_window", who.params(vector=Vector(list(vector)), limit=limit)
