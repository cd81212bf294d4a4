"""retrieval/fusion.py: weighted reciprocal rank over /query's lists, then one score per turn."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memwarden.retrieval.fusion import (
    FUSION_K,
    RECORD_WEIGHT,
    Listed,
    fuse_lists,
    group_by_origin,
)

IDS = [uuid.UUID(int=n) for n in range(1, 13)]
TURNS = [uuid.UUID(int=1000 + n) for n in range(4)]

lists = st.lists(
    st.builds(
        Listed,
        st.booleans(),
        st.booleans(),
        st.lists(st.sampled_from(IDS), unique=True, max_size=len(IDS)),
    ),
    max_size=6,
)


@given(lists)
def test_fusion_lists_every_candidate_once_best_score_first(given_lists: list[Listed]) -> None:
    fused = fuse_lists(given_lists)
    ids = [i for i, _ in fused]
    assert len(ids) == len(set(ids))
    assert set(ids) == {i for listed in given_lists for i in listed.ids}
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)


@given(lists, st.sampled_from(IDS))
def test_a_candidate_first_in_every_list_it_is_in_and_in_all_of_them_ranks_first(
    given_lists: list[Listed], best: uuid.UUID
) -> None:
    placed = [
        Listed(x.chunks, x.dense, [best, *[i for i in x.ids if i != best]]) for x in given_lists
    ]
    if placed:
        assert fuse_lists(placed)[0][0] == best


def test_a_records_list_weighs_less_than_a_chunks_list_at_the_same_rank() -> None:
    record, chunk = IDS[0], IDS[1]
    fused = fuse_lists([Listed(False, False, [record]), Listed(True, False, [chunk])])
    assert [i for i, _ in fused] == [chunk, record]
    assert dict(fused)[record] == RECORD_WEIGHT / (FUSION_K + 1)


def test_a_candidate_in_two_lists_outranks_one_first_in_a_single_list() -> None:
    # with k = 5: 1/(5+1) alone against 1/(5+2) + 1/(5+2) for second place twice
    a, b, c = IDS[:3]
    fused = fuse_lists([Listed(True, False, [a, b]), Listed(True, True, [c, b])])
    assert fused[0][0] == b


def test_candidates_of_one_turn_rise_together_above_a_single_better_candidate() -> None:
    single, chunk, record = IDS[:3]
    fused = [(single, 0.20), (chunk, 0.15), (record, 0.10)]
    origin = {single: TURNS[0], chunk: TURNS[1], record: TURNS[1]}
    grouped = group_by_origin(fused, origin)
    assert grouped == [(chunk, 0.25), (record, 0.25), (single, 0.20)]


def test_a_candidate_without_a_turn_keeps_its_own_score() -> None:
    document_chunk, a, b = IDS[:3]
    fused = [(document_chunk, 0.3), (a, 0.2), (b, 0.05)]
    grouped = group_by_origin(fused, {document_chunk: None, a: TURNS[0], b: TURNS[0]})
    assert grouped == [(document_chunk, 0.3), (a, 0.25), (b, 0.25)]
    assert group_by_origin(fused, {}) == fused


@given(
    st.lists(
        st.tuples(st.sampled_from(IDS), st.floats(0.0, 1.0), st.none() | st.sampled_from(TURNS)),
        unique_by=lambda t: t[0],
    )
)
def test_grouping_keeps_every_candidate_and_scores_each_with_its_turns_total(
    rows: list[tuple[uuid.UUID, float, uuid.UUID | None]],
) -> None:
    fused = sorted([(i, s) for i, s, _ in rows], key=lambda t: -t[1])
    origin = {i: t for i, _, t in rows}
    grouped = group_by_origin(fused, origin)
    assert sorted(i for i, _ in grouped) == sorted(i for i, _ in fused)
    scores = [s for _, s in grouped]
    assert scores == sorted(scores, reverse=True)
    own = dict(fused)
    for item_id, score in grouped:
        turn = origin[item_id]
        expected = (
            own[item_id] if turn is None else sum(own[i] for i, t in origin.items() if t == turn)
        )
        assert score == expected or abs(score - expected) < 1e-9
