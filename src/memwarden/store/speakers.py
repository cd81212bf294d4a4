"""Recall by who spoke a turn (SQL in queries/speakers.sql; retrieval/speakers.py says why)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memwarden.store.batch import Statement
from memwarden.store.recall import Reader


def chunks_of_named_speakers(
    who: Reader, ids: Sequence[uuid.UUID], words: Sequence[str]
) -> Statement:
    """Of `ids`, the chunks of turns whose speaker's id is one of `words` (lower-cased)."""
    return "recall_chunks_of_named_speakers", who.params(ids=list(ids), words=list(words))
