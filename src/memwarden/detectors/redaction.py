"""Replace detected sensitive spans with typed placeholders.

Placeholders are chosen so that no detector fires on them, which is what makes redaction
idempotent: a second pass finds nothing new and returns the text unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memwarden.detectors.findings import REASON_CODES, REDACTABLE_CODES, Finding
from memwarden.detectors.scan import find_sensitive

_PRECEDENCE = {code: rank for rank, code in enumerate(REASON_CODES)}


def placeholder(code: str) -> str:
    return f"[REDACTED:{code}]"


@dataclass(frozen=True, slots=True)
class RedactionResult:
    """Redacted text and, per reason code, the spans replaced (offsets into the input)."""

    text: str
    spans_by_code: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.spans_by_code)


def _merge(findings: Sequence[Finding]) -> list[tuple[int, int, str]]:
    """Merge overlapping or touching spans; the merged span keeps the most severe code."""
    merged: list[tuple[int, int, str]] = []
    for f in sorted(findings, key=lambda f: (f.start, f.end)):
        if f.start == f.end:
            continue
        if merged and f.start <= merged[-1][1]:
            start, end, code = merged[-1]
            best = code if _PRECEDENCE[code] <= _PRECEDENCE[f.code] else f.code
            merged[-1] = (start, max(end, f.end), best)
        else:
            merged.append((f.start, f.end, f.code))
    return merged


def redact_findings(text: str, findings: Sequence[Finding]) -> RedactionResult:
    """Redact the given findings (only card, credential and personal-data codes)."""
    spans = _merge([f for f in findings if f.code in REDACTABLE_CODES])
    parts: list[str] = []
    by_code: dict[str, list[tuple[int, int]]] = {}
    cursor = 0
    for start, end, code in spans:
        parts.append(text[cursor:start])
        parts.append(placeholder(code))
        by_code.setdefault(code, []).append((start, end))
        cursor = end
    parts.append(text[cursor:])
    return RedactionResult("".join(parts), by_code)


def redact(text: str, finder: Callable[[str], Sequence[Finding]] | None = None) -> RedactionResult:
    """Redact every card, credential and personal-data span `finder` reports in `text`."""
    return redact_findings(text, (finder or find_sensitive)(text))
