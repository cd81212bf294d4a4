"""Splitting text into overlapping windows (spec 4), pure and shared with the judge.

Windows are cut at exact character offsets: window i starts at i * (size - overlap),
so a fact on a boundary is seen whole by at least one window when it is no longer
than the overlap. Extraction drops text past `max_windows` and counts it; the judge
(size 16,000, overlap 0) must see everything, so it asks for an error instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EXTRACTION_WINDOW = 8000
EXTRACTION_OVERLAP = 256
EXTRACTION_MAX_WINDOWS = 10


class TooManyWindows(ValueError):
    """The text needs more windows than allowed and the caller chose not to drop."""

    def __init__(self, needed: int, max_windows: int) -> None:
        super().__init__(f"text needs {needed} windows, at most {max_windows} allowed")
        self.needed = needed
        self.max_windows = max_windows


@dataclass(frozen=True, slots=True)
class WindowPlan:
    windows: list[str]
    dropped_chars: int
    dropped_bytes: int

    @property
    def truncated(self) -> bool:
        return self.dropped_chars > 0


def windows_needed(length: int, size: int, overlap: int) -> int:
    """How many windows cover `length` characters with no limit on their number."""
    if length <= 0:
        return 0
    if length <= size:
        return 1
    step = size - overlap
    return 1 + -(-(length - size) // step)


def windows(
    text: str,
    size: int = EXTRACTION_WINDOW,
    overlap: int = EXTRACTION_OVERLAP,
    max_windows: int = EXTRACTION_MAX_WINDOWS,
    *,
    on_overflow: Literal["drop", "raise"] = "drop",
) -> WindowPlan:
    """Plan the windows of `text`; past `max_windows` drop the rest (counted) or raise."""
    if size <= 0:
        raise ValueError("size must be positive")
    if not 0 <= overlap < size:
        raise ValueError("overlap must be at least 0 and smaller than size")
    if max_windows <= 0:
        raise ValueError("max_windows must be positive")
    needed = windows_needed(len(text), size, overlap)
    if needed > max_windows and on_overflow == "raise":
        raise TooManyWindows(needed, max_windows)
    count = min(needed, max_windows)
    step = size - overlap
    parts = [text[i * step : i * step + size] for i in range(count)]
    kept = (count - 1) * step + size if count else 0
    rest = text[kept:]
    return WindowPlan(
        windows=parts,
        dropped_chars=len(rest),
        dropped_bytes=len(rest.encode("utf-8", errors="surrogatepass")),
    )
