"""How /query's candidate lists combine: weighted reciprocal rank, then one score per turn.

Two steps, both measured on LoCoMo evidence recall (docs/benchmarks.md, "LoCoMo evidence
recall"), tuned on the first five conversations only and reported on the other five too:

1. `fuse_lists`: reciprocal-rank fusion with a weight per list and a small k. The turn
   chunks' own lists carry most of the evidence (each alone finds more than the extracted
   records' lists do: the rule extractor's short bodies miss most of what a turn says), so
   the records' lists weigh `RECORD_WEIGHT`; a small k lets the head of each list count
   more than its tail (k=60 flattened ranks 1-20 until any candidate in three lists beat
   the best candidate of one).
2. `group_by_origin`: a chunk and the records extracted from the same turn are evidence for
   one thing said; each candidate of the fused head is scored with the sum of its turn's
   candidates, so a turn found by its chunk and by a record of it rises together. A
   candidate with no turn (a document's chunk, a command's record) keeps its own score.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FUSION_K = 5
RECORD_WEIGHT = 0.3
CHUNK_VECTOR_WEIGHT = 1.0
HEAD = 50  # candidates the second stage reads and regroups (at least the request's limit)

Scored = list[tuple[uuid.UUID, float]]


@dataclass(frozen=True)
class Listed:
    """One candidate list: whose (chunks or records), which signal, ids best first."""

    chunks: bool
    dense: bool
    ids: Sequence[uuid.UUID]


def weight(listed: Listed) -> float:
    if not listed.chunks:
        return RECORD_WEIGHT
    return CHUNK_VECTOR_WEIGHT if listed.dense else 1.0


def fuse_lists(lists: Sequence[Listed], k: int = FUSION_K) -> Scored:
    """Weighted RRF: sum of weight / (k + rank) over the lists; ties keep first appearance."""
    scores: dict[uuid.UUID, float] = {}
    for listed in lists:
        w = weight(listed)
        for rank, item_id in enumerate(listed.ids, start=1):
            scores[item_id] = scores.get(item_id, 0.0) + w / (k + rank)
    order = {item_id: n for n, item_id in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))


def group_by_origin(fused: Scored, origin: Mapping[uuid.UUID, uuid.UUID | None]) -> Scored:
    """The candidates rescored by their turn's total and sorted by it (a turn's candidates
    stay in their fused order; ties keep the fused order). `origin` names each candidate's
    turn; a candidate missing from it, or with None, stands alone."""
    totals: dict[uuid.UUID, float] = {}
    for item_id, score in fused:
        turn = origin.get(item_id)
        if turn is not None:
            totals[turn] = totals.get(turn, 0.0) + score
    rescored = []
    for n, (item_id, score) in enumerate(fused):
        turn = origin.get(item_id)
        rescored.append((totals[turn] if turn is not None else score, -n, item_id))
    rescored.sort(key=lambda t: (-t[0], -t[1]))
    return [(item_id, total) for total, _, item_id in rescored]
