"""How /query's candidate lists combine: reciprocal rank with a weight per list.

Measured on LoCoMo evidence recall (docs/benchmarks.md, "LoCoMo evidence recall"), tuned
on the first five conversations only and reported on the other five too. The turn chunks'
own lists carry most of the evidence (each alone finds more than the extracted records'
lists do: the rule extractor's short bodies miss most of what a turn says), so the
records' lists weigh `RECORD_WEIGHT`; a small k lets the head of each list count more than
its tail (with k=60, ranks 1-20 of one list were worth about the same, so any candidate in
three lists beat the best candidate of one).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

FUSION_K = 5
RECORD_WEIGHT = 0.5

Scored = list[tuple[uuid.UUID, float]]


@dataclass(frozen=True)
class Listed:
    """One candidate list: whose (chunks or records), which signal, ids best first."""

    chunks: bool
    dense: bool
    ids: Sequence[uuid.UUID]


def weight(listed: Listed) -> float:
    """A chunk list weighs 1, a records' list (full-text or vector alike) RECORD_WEIGHT: so a
    Context of records alone weighs its two lists equally, as before."""
    return 1.0 if listed.chunks else RECORD_WEIGHT


def fuse_lists(lists: Sequence[Listed], k: int = FUSION_K) -> Scored:
    """Weighted RRF: sum of weight / (k + rank) over the lists; ties keep first appearance."""
    scores: dict[uuid.UUID, float] = {}
    for listed in lists:
        w = weight(listed)
        for rank, item_id in enumerate(listed.ids, start=1):
            scores[item_id] = scores.get(item_id, 0.0) + w / (k + rank)
    order = {item_id: n for n, item_id in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))
