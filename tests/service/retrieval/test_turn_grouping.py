"""/query's second stage: a turn's chunk and the records extracted from it are one piece of
evidence, served together with the turn's summed score (retrieval/fusion.py)."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from tests.service import usecases
from tests.support.services import ContextKey, ServiceHarness

TURNS = [
    "I work as a nurse at the city hospital.",
    "The nurse on the night shift was kind to my father.",
    "We went hiking in the mountains.",
]


def _by_turn(hits: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for hit in hits:
        if hit["source"]["kind"] == "turn":
            out.setdefault(hit["source"]["ref"], []).append(hit)
    return out


def test_a_turns_chunk_and_its_records_are_served_together_with_the_turns_summed_score(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    for text in TURNS:
        usecases.facts(svc, ctx, text)
    hits = usecases.query(svc, ctx, "Where does the nurse work?", limit=20)
    work = next(h["source"]["ref"] for h in hits if h["text"] == TURNS[0])
    found = _by_turn(hits)[work]
    assert {h["kind"] for h in found} - {"chunk"}, "the rule extractor reads a record here"
    assert len({h["score"] for h in found}) == 1
    # together, and first: its chunk and records found it twice over
    assert [h["source"]["ref"] for h in hits[: len(found)]] == [work] * len(found)
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_every_turns_hits_are_contiguous_in_the_served_order(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    for text in TURNS:
        usecases.facts(svc, ctx, text)
    hits = usecases.query(svc, ctx, "nurse hospital hiking mountains", limit=20)
    refs = [h["source"]["ref"] for h in hits]
    runs = [ref for ref, _ in groupby(refs)]
    assert len(runs) == len(set(runs))
    assert len(set(refs)) < len(refs)  # some turn was found through more than one hit
