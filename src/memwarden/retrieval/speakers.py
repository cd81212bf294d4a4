"""The speaker a query names is a preference, not a search term.

A question about a person of a conversation names them ("When did Caroline go to the
support group?"). As a full-text word the name matches every turn that person spoke or
was addressed in, so it hardly ranks; but the turns that person spoke are where the answer
usually is. So after fusion, the chunks of the fused head whose turn was spoken by a
speaker the query names (the id in the turn's speaker key: the `speaker` a write gives,
or a `user/<id>` scope pair, domain/speaker.py) have their score raised by
`SPEAKER_PREFERENCE`, and the list is re-sorted. Only chunks: a record's link to its turn
does not survive an import (portability/records.py), and an imported Context must rank
as its source. Tuned on LoCoMo conversations 1-5 (0.2 to 2.0 tried: hybrid recall@10
0.727 without, 0.746 at 0.6, 0.751 at 1.0, 0.759 at 1.5 and 2.0; the smallest factor of
that plateau is kept, a preference rather than a filter), measured on 6-10 too
(docs/benchmarks.md).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection

from memwarden.store import speakers as store
from memwarden.store.batch import run_all
from memwarden.store.db import Conn
from memwarden.store.recall import Reader, candidate_ids

SPEAKER_PREFERENCE = 1.0
HEAD = 100  # how much of the fused list is looked at: what the reranker and limit can see
MAX_WORDS = 32

Scored = list[tuple[uuid.UUID, float]]


def query_words(text: str) -> list[str]:
    """The query's distinct words, lower-cased as the SQL compares speaker ids."""
    return list(dict.fromkeys(re.findall(r"[\w.@-]+", text.lower())))[:MAX_WORDS]


def prefer(fused: Scored, preferred: Collection[uuid.UUID], factor: float) -> Scored:
    """Scores of `preferred` ids times (1 + factor), re-sorted; ties keep the fused order."""
    if not preferred:
        return fused
    raised = [(i, s * (1 + factor) if i in preferred else s) for i, s in fused]
    order = {i: n for n, (i, _) in enumerate(fused)}
    return sorted(raised, key=lambda kv: (-kv[1], order[kv[0]]))


async def prefer_named_speakers(
    conn: Conn, who: Reader, query: str, fused: Scored, chunk_ids: Collection[uuid.UUID]
) -> Scored:
    """`fused` with the chunks of speakers the query names raised (one round trip, only
    when the fused head holds chunks)."""
    head = [i for i, _ in fused[:HEAD] if i in chunk_ids]
    words = query_words(query)
    if not head or not words:
        return fused
    [rows] = await run_all(conn, [store.chunks_of_named_speakers(who, head, words)])
    return prefer(fused, set(candidate_ids(rows)), SPEAKER_PREFERENCE)
