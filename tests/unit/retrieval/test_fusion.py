"""retrieval/fusion.py: weighted reciprocal rank over /query's candidate lists."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memwarden.retrieval.fusion import (
    FUSION_K,
    RECORD_WEIGHT,
    Listed,
    fuse_lists,
)

IDS = [uuid.UUID(int=n) for n in range(1, 13)]

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
    lexical, vector, chunk = IDS[:3]
    fused = fuse_lists(
        [
            Listed(False, False, [lexical]),
            Listed(False, True, [vector]),
            Listed(True, False, [chunk]),
        ]
    )
    assert [i for i, _ in fused] == [chunk, lexical, vector]  # the records' two tie
    assert dict(fused)[lexical] == dict(fused)[vector] == RECORD_WEIGHT / (FUSION_K + 1)


def test_a_candidate_in_two_lists_outranks_one_first_in_a_single_list() -> None:
    # with k = 5: 1/(5+1) alone against 1/(5+2) + 1/(5+2) for second place twice
    a, b, c = IDS[:3]
    fused = fuse_lists([Listed(True, False, [a, b]), Listed(True, True, [c, b])])
    assert fused[0][0] == b
