"""A speaker the query names is a preference (retrieval/speakers.py): of equally matching
turns, the one that speaker spoke ranks first; a query naming no speaker keeps the fused
order."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.retrieval.speakers import prefer
from tests.service.usecases import query
from tests.support.services import ContextKey, ServiceHarness

TEXT = "went hiking in the hills on Sunday"


def _spoken(svc: ServiceHarness, ctx: ContextKey, speaker: str) -> None:
    item = FactsInput(TEXT, infer="none", speaker=speaker)
    svc.run(write_facts(svc.services, ctx.caller, ctx.id, item))


def _speakers(svc: ServiceHarness, ctx: ContextKey, sql: object, text: str) -> list[str]:
    hits = query(svc, ctx, text, mode="lexical")
    turns = [h["source"]["ref"] for h in hits]
    rows = dict(sql("SELECT id::text, speaker FROM turn WHERE context_id = %s", (ctx.id,)))  # type: ignore[operator]
    return [rows[t] for t in turns]


def test_of_equally_matching_turns_the_one_the_named_speaker_spoke_ranks_first(
    svc: ServiceHarness, sql: object
) -> None:
    ctx = svc.make_context()
    _spoken(svc, ctx, "Mia")
    _spoken(svc, ctx, "Jon")
    assert _speakers(svc, ctx, sql, "When did Jon go hiking?") == ["user:Jon", "user:Mia"]
    assert _speakers(svc, ctx, sql, "When did Mia go hiking?") == ["user:Mia", "user:Jon"]
    assert _speakers(svc, ctx, sql, "When was the hiking?") == ["user:Mia", "user:Jon"]


ids = st.lists(st.uuids(), unique=True, max_size=20)


@given(ids, st.data())
def test_a_preference_raises_only_the_preferred_and_keeps_each_groups_order(
    items: list[uuid.UUID], data: st.DataObject
) -> None:
    scores = data.draw(st.lists(st.floats(0.01, 1.0), min_size=len(items), max_size=len(items)))
    fused = sorted(zip(items, scores, strict=True), key=lambda kv: -kv[1])
    preferred = set(data.draw(st.lists(st.sampled_from(items), unique=True))) if items else set()
    out = prefer(fused, preferred, 0.6)
    assert sorted(out) == sorted((i, s * 1.6 if i in preferred else s) for i, s in fused)
    assert [s for _, s in out] == sorted((s for _, s in out), reverse=True)
    for group in (preferred, set(items) - preferred):
        assert [i for i, _ in out if i in group] == [i for i, _ in fused if i in group]
