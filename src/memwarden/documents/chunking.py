"""Split document text into retrieval chunks at paragraph, then sentence, boundaries (pure)."""

from __future__ import annotations

import re

from memwarden.pipeline.windowing import (
    EXTRACTION_MAX_WINDOWS,
    EXTRACTION_OVERLAP,
    EXTRACTION_WINDOW,
)

CHUNK_CHARS = 1200
MIN_CHARS = 200
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _pieces(text: str, limit: int) -> list[str]:
    """Paragraphs, with any paragraph over the limit cut at sentences, then hard."""
    out: list[str] = []
    for para in (p.strip() for p in text.split("\n\n")):
        if not para:
            continue
        if len(para) <= limit:
            out.append(para)
            continue
        for sentence in _SENTENCE.split(para):
            while len(sentence) > limit:
                out.append(sentence[:limit])
                sentence = sentence[limit:]
            if sentence:
                out.append(sentence)
    return out


def chunk(text: str, limit: int = CHUNK_CHARS) -> list[str]:
    """Greedy packing of pieces into chunks of at most `limit` characters."""
    chunks: list[str] = []
    current = ""
    for piece in _pieces(text, limit):
        candidate = f"{current}\n\n{piece}" if current else piece
        if len(candidate) <= limit:
            current = candidate
        else:
            chunks.append(current)
            current = piece
    if current:
        if chunks and len(current) < MIN_CHARS and len(chunks[-1]) + len(current) + 2 <= limit:
            chunks[-1] = f"{chunks[-1]}\n\n{current}"
        else:
            chunks.append(current)
    return chunks


# What one extraction's windows cover (77,696 characters): a longer part would lose its tail.
PART_CHARS = (EXTRACTION_MAX_WINDOWS - 1) * (EXTRACTION_WINDOW - EXTRACTION_OVERLAP) + (
    EXTRACTION_WINDOW
)


def extraction_parts(text: str, part_chars: int = PART_CHARS) -> list[str]:
    """Documents can be longer than one extraction's 10 windows: extract them in parts of
    at most `part_chars` (what those windows cover, so no part drops text), cut at
    paragraph boundaries where possible."""
    parts: list[str] = []
    current = ""
    for piece in _pieces(text, part_chars):
        candidate = f"{current}\n\n{piece}" if current else piece
        if len(candidate) <= part_chars:
            current = candidate
        else:
            parts.append(current)
            current = piece
    if current:
        parts.append(current)
    return parts
