"""Replace detected sensitive spans with typed placeholders.

Placeholders are chosen so that no detector fires on them, which is what makes redaction
idempotent: a second pass finds nothing new and returns the text unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memwarden.detectors.findings import REASON_CODES, REDACTABLE_CODES, Finding, placeholder
from memwarden.detectors.scan import find_sensitive

_PRECEDENCE = {code: rank for rank, code in enumerate(REASON_CODES)}
# Rescans of the redacted text; one is almost always enough, the bound only rules out a loop.
_MAX_ROUNDS = 8


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


def _input_offset(result: RedactionResult, position: int, *, end: bool) -> int:
    """Where `position` in the redacted text falls in the input; a placeholder maps to its span."""
    spans = sorted((s, e, code) for code, pairs in result.spans_by_code.items() for s, e in pairs)
    shift = 0  # redacted offset minus input offset, left of the current span
    for start, stop, code in spans:
        out_start = start + shift
        out_stop = out_start + len(placeholder(code))
        if position < out_start or (end and position == out_start):
            return position - shift
        if position < out_stop or (end and position == out_stop):
            return stop if end else start
        shift = out_stop - stop
    return position - shift


def _standalone(text: str, start: int, end: int) -> bool:
    """The copy at start:end is not part of a longer word or number."""
    before_ok = start == 0 or not (text[start].isalnum() and text[start - 1].isalnum())
    after_ok = end == len(text) or not (text[end - 1].isalnum() and text[end].isalnum())
    return before_ok and after_ok


def _with_repeats(text: str, findings: list[Finding]) -> list[Finding]:
    """The findings plus every other standalone copy of a value they point at.

    A detector may accept a value in one place and not in another ("po 4111 1111 1111 1111"
    is a purchase order, the same digits 60 characters on are a card); once the value is known
    to be sensitive, no copy of it may stay.
    """
    spans = {(f.start, f.end) for f in findings}
    first: dict[str, Finding] = {}
    for f in findings:
        if f.end > f.start:
            first.setdefault(text[f.start : f.end], f)
    repeats: list[Finding] = []
    for value, f in first.items():
        index = text.find(value)
        while index >= 0:
            end = index + len(value)
            if (index, end) not in spans and _standalone(text, index, end):
                repeats.append(Finding(f.code, f.detector, index, end, f.score))
            index = text.find(value, end)
    return [*findings, *repeats]


def redact(text: str, finder: Callable[[str], Sequence[Finding]] | None = None) -> RedactionResult:
    """Redact every card, credential and personal-data span `finder` reports in `text`.

    Some detectors judge a value by the words near it (a number after "po" is a purchase order,
    not a card), and a placeholder is rarely as long as what it replaces: redacting one span can
    move a label out of another value's reach. So the redacted text is scanned again, and what
    is found there joins the findings (as input offsets) until a scan of the result finds
    nothing, which is also what makes redaction idempotent. Every standalone copy of a value
    found sensitive anywhere in the text is redacted with it.
    """
    find = finder or find_sensitive
    findings = _with_repeats(text, [f for f in find(text) if f.code in REDACTABLE_CODES])
    result = redact_findings(text, findings)
    for _ in range(_MAX_ROUNDS if result.changed else 0):  # unchanged text: scanned already
        found = [f for f in find(result.text) if f.code in REDACTABLE_CODES]
        if not found:
            break
        mapped = [
            Finding(
                f.code,
                f.detector,
                _input_offset(result, f.start, end=False),
                _input_offset(result, f.end, end=True),
                f.score,
            )
            for f in found
        ]
        findings = _with_repeats(text, [*findings, *mapped])
        again = redact_findings(text, findings)
        if again.text == result.text:
            break  # a detector fires on a placeholder itself: nothing more to take from the input
        result = again
    return result
