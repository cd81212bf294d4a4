"""Document chunking (pure): bounded chunks that keep every word in order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memwarden.documents.chunking import CHUNK_CHARS, chunk, extraction_parts
from memwarden.pipeline.windowing import windows

words = st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=30)
sentence = st.lists(words, min_size=1, max_size=40).map(lambda ws: " ".join(ws) + ".")
paragraph = st.lists(sentence, min_size=1, max_size=12).map(" ".join)
document = st.lists(paragraph, min_size=1, max_size=30).map("\n\n".join)


def _tokens(text: str) -> list[str]:
    return "".join(text.split()).split(".")


@given(document, st.integers(50, 3000))
def test_every_chunk_fits_the_limit(text: str, limit: int) -> None:
    assert all(0 < len(c) <= limit for c in chunk(text, limit))


@given(document, st.integers(50, 3000))
def test_chunks_keep_every_character_in_order(text: str, limit: int) -> None:
    joined = "".join("".join(chunk(text, limit)).split())
    assert joined == "".join(text.split())


@given(document)
def test_extraction_parts_keep_every_character_and_fit(text: str) -> None:
    parts = extraction_parts(text, 5000)
    assert all(len(p) <= 5000 for p in parts)
    assert "".join("".join(parts).split()) == "".join(text.split())


def test_short_text_is_one_chunk() -> None:
    assert chunk("Hello there.") == ["Hello there."]


def test_a_tiny_tail_joins_the_previous_chunk() -> None:
    text = "a" * (CHUNK_CHARS - 10) + "\n\n" + "tail."
    assert chunk(text) == [text]


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 400_000), st.integers(0, 90_000))
def test_every_character_of_a_document_reaches_an_extraction_window(
    length: int, para_every: int
) -> None:
    """Parts are extracted with the turn's windows (8,000 x 10, 256 overlap): no part may be
    longer than those windows cover, or its tail would be dropped uncounted."""
    words = ("word " * (length // 5 + 1))[:length]
    text = "\n\n".join(
        words[i : i + para_every] for i in range(0, len(words), para_every or len(words))
    )
    parts = extraction_parts(text)
    assert all(windows(p).dropped_chars == 0 for p in parts)
    assert "".join("".join(parts).split()) == "".join(text.split())
