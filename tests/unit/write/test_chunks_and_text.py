"""Pure pieces of the write path: chunking, text checks, length bands, the RRF fusion."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memwarden.embedding import length_groups
from memwarden.errors import InvalidInput
from memwarden.pipeline.chunking import CHUNK_CHARS, chunk_text
from memwarden.pipeline.textcheck import check_text
from memwarden.retrieval.query import fuse_ranks, or_query


def test_a_short_text_is_one_chunk_and_blank_text_none() -> None:
    assert chunk_text("I love jazz.") == ["I love jazz."]
    assert chunk_text("   ") == []


@given(st.text(alphabet="abc .\n", min_size=1, max_size=5000))
def test_chunks_are_bounded_and_cover_every_word(text: str) -> None:
    chunks = chunk_text(text)
    assert all(len(c) <= CHUNK_CHARS for c in chunks)
    joined = " ".join(chunks)
    assert all(word in joined for word in text.split())


def test_long_text_is_cut_at_sentence_boundaries() -> None:
    text = "This is one sentence about memory. " * 100
    chunks = chunk_text(text)
    assert len(chunks) > 1 and all(c.endswith(".") for c in chunks[:-1])


@pytest.mark.parametrize(
    "text", ["", "  \n", "a\x00b", "bad \ud800 surrogate", "\x01\x02\x03\x04\x05\x06xy"]
)
def test_empty_or_binary_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        check_text(text)


def test_ordinary_text_with_tabs_and_newlines_passes() -> None:
    check_text("Line one\n\tLine two\r\nÜmlaut, 日本語, emoji 🎉")


def test_texts_are_grouped_by_length_band_in_order() -> None:
    groups = length_groups(["a", "x" * 1000, "bb", "y" * 100])
    assert groups == [[0, 2], [3], [1]]


def test_rrf_uses_each_candidates_own_rank() -> None:
    a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    fused = fuse_ranks([[(a, 1), (b, 2)], [(b, 1), (c, 40)]])
    assert [i for i, _ in fused] == [b, a, c]


def test_query_words_are_ored_without_operators() -> None:
    assert or_query("Where does Alice work, or not?") == "where or does or alice or work"
