"""Windowing (spec 4): 8,000-character windows, 256 overlap, at most 10."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memwarden.pipeline.windowing import TooManyWindows, windows, windows_needed


def test_short_text_is_one_window_and_empty_text_is_none() -> None:
    assert windows("hello").windows == ["hello"]
    plan = windows("")
    assert (plan.windows, plan.dropped_chars, plan.dropped_bytes) == ([], 0, 0)


def test_a_text_of_exactly_one_window_is_not_split() -> None:
    assert len(windows("x" * 8000).windows) == 1
    assert len(windows("x" * 8001).windows) == 2


def test_the_spec_defaults_cover_77_696_characters_and_drop_the_rest() -> None:
    kept = 9 * (8000 - 256) + 8000
    plan = windows("a" * kept + "é" * 10)
    assert len(plan.windows) == 10
    assert plan.dropped_chars == 10 and plan.dropped_bytes == 20
    assert plan.truncated


def test_the_judge_layout_raises_instead_of_dropping() -> None:
    with pytest.raises(TooManyWindows) as caught:
        windows("x" * 160_001, size=16_000, overlap=0, max_windows=10, on_overflow="raise")
    assert caught.value.needed == 11
    plan = windows("x" * 160_000, size=16_000, overlap=0, max_windows=10, on_overflow="raise")
    assert len(plan.windows) == 10 and plan.dropped_chars == 0


@pytest.mark.parametrize(
    ("size", "overlap", "max_windows"), [(0, 0, 1), (10, 10, 1), (10, -1, 1), (10, 2, 0)]
)
def test_impossible_layouts_are_refused(size: int, overlap: int, max_windows: int) -> None:
    with pytest.raises(ValueError):
        windows("abc", size, overlap, max_windows)


layouts = st.integers(min_value=1, max_value=60).flatmap(
    lambda size: st.tuples(
        st.just(size),
        st.integers(min_value=0, max_value=size - 1),
        st.integers(min_value=1, max_value=6),
    )
)


@given(text=st.text(max_size=400), layout=layouts)
def test_windows_respect_size_overlap_coverage_and_count(
    text: str, layout: tuple[int, int, int]
) -> None:
    size, overlap, max_windows = layout
    plan = windows(text, size, overlap, max_windows)
    parts = plan.windows
    assert len(parts) <= max_windows
    assert all(0 < len(w) <= size for w in parts)
    for before, after in itertools.pairwise(parts):
        assert len(before) == size
        assert before[size - overlap :] == after[:overlap]
    covered = "".join([parts[0]] + [w[overlap:] for w in parts[1:]]) if parts else ""
    assert text.startswith(covered)
    assert len(covered) + plan.dropped_chars == len(text)
    assert plan.dropped_bytes == len(text[len(covered) :].encode("utf-8", "surrogatepass"))
    if plan.dropped_chars:
        assert len(parts) == max_windows
    assert len(parts) == min(windows_needed(len(text), size, overlap), max_windows)


@given(text=st.text(max_size=300), layout=layouts)
def test_raising_on_overflow_happens_exactly_when_dropping_would_drop(
    text: str, layout: tuple[int, int, int]
) -> None:
    size, overlap, max_windows = layout
    dropped = windows(text, size, overlap, max_windows).dropped_chars
    try:
        windows(text, size, overlap, max_windows, on_overflow="raise")
    except TooManyWindows:
        assert dropped > 0
    else:
        assert dropped == 0
