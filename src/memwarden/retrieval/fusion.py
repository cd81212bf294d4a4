"""How /query's candidate lists combine: reciprocal rank with a weight per list.

Measured on LoCoMo evidence recall (docs/benchmarks.md, "LoCoMo evidence recall"), tuned
on the first five conversations only and reported on the other five too. The turn chunks'
own lists carry most of the evidence (each alone finds more than the extracted records'
lists do: the rule extractor's short bodies miss most of what a turn says), so the
records' lists weigh `RECORD_WEIGHT`; a small k lets the head of each list count more than
its tail (with k=60, ranks 1-20 of one list were worth about the same, so any candidate in
three lists beat the best candidate of one).

Two of the chunk lists are window lists (store/windows.py): each chunk scored together
with the chunk before it in its session (or document), so a reply is found by the
question it answers ("What have you been up to?" / "Researching adoption agencies"). The
full-text window list is added beside the chunks' own full-text list; the vector window
list replaces the chunks' exact scan (a Context with its own chunk index keeps its index
walk, which has no window). They weigh as chunk lists. Measured on LoCoMo conversations
1-5, confirmed on 6-10: recall@10 0.703 -> 0.727 and 0.649 -> 0.688, almost all of it
from the vector window (docs/benchmarks.md, "LoCoMo evidence recall").
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
