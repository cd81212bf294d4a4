"""Turn text into searchable chunks (pure).

A chunk is what full-text and vector recall return for a turn. The local embedder reads
at most 256 tokens (about 1,000 characters of English), so longer text is cut into pieces
of that size, preferably at a sentence or word boundary, with a small overlap so a phrase
on a cut is whole in one of them.
"""

from __future__ import annotations

CHUNK_CHARS = 1000
CHUNK_OVERLAP = 100
_BREAKS = ("\n\n", "\n", ". ", "! ", "? ", "; ", ", ", " ")


def _cut_at(text: str, start: int, end: int) -> int:
    """The best boundary in the last third of [start, end)."""
    floor = start + (end - start) * 2 // 3
    for mark in _BREAKS:
        at = text.rfind(mark, floor, end)
        if at != -1:
            return at + len(mark)
    return end


def chunk_text(text: str, size: int = CHUNK_CHARS, overlap: int = CHUNK_OVERLAP) -> list[str]:
    """Pieces of at most `size` characters covering all of `text` (whitespace-only dropped)."""
    if len(text) <= size:
        return [text] if text.strip() else []
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            end = _cut_at(text, start, end)
        piece = text[start:end].strip()
        if piece:
            pieces.append(piece)
        if end >= len(text):
            break
        start = max(end - overlap, start + 1)
    return pieces
