"""Verdict severity and reason codes: the pure rules every gate and tool shares.

The most severe verdict wins (pass < warn < fail < deny) so that adding a signal (a
detector, a model, another window) can only make the outcome stricter, never looser.
Reasons are only the fixed codes, so a reason can never repeat the content it describes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from memwarden.domain.verdicts import REASON_CODES, VERDICTS, Verdict

SEVERITY: Final[tuple[Verdict, ...]] = VERDICTS
DEFAULT_REASON: Final = "policy"
_ALIASES: Final[dict[str, str]] = {
    "injection": "prompt_injection",
    "card": "payment_card",
    "pii": "personal_data",
    "secret": "credential",
}


def severity(verdict: str) -> int:
    """Position in pass < warn < fail < deny; anything else is an error, not a guess."""
    try:
        return SEVERITY.index(verdict)  # type: ignore[arg-type]
    except ValueError:
        raise ValueError(f"unknown verdict {verdict!r}") from None


def most_severe(verdicts: Iterable[str]) -> Verdict:
    """The strictest of the given verdicts; no verdict at all is a pass."""
    worst = 0
    for verdict in verdicts:
        worst = max(worst, severity(verdict))
    return SEVERITY[worst]


def normalise_reasons(reasons: Iterable[object]) -> tuple[str, ...]:
    """Fixed codes only, deduplicated, in the canonical order.

    Anything that is not a known code (free text, a label a model invented) becomes
    `policy`: the concern is kept but its wording, which may quote content, is not.
    """
    seen: set[str] = set()
    for raw in reasons:
        code = raw.strip().lower() if isinstance(raw, str) else ""
        code = _ALIASES.get(code, code)
        seen.add(code if code in REASON_CODES else DEFAULT_REASON)
    return tuple(code for code in REASON_CODES if code in seen)


def combine(parts: Iterable[tuple[str, Iterable[object]]]) -> tuple[Verdict, tuple[str, ...]]:
    """Merge (verdict, reasons) signals into one: the strictest verdict, every concern.

    A pass carries no reasons; a non-pass with no reason gets `policy` so that a
    refusal always names a code.
    """
    verdicts: list[str] = []
    codes: list[object] = []
    for verdict, reasons in parts:
        verdicts.append(verdict)
        if verdict != "pass":
            codes.extend(reasons)
    final = most_severe(verdicts)
    if final == "pass":
        return final, ()
    reasons = normalise_reasons(codes)
    return final, reasons or (DEFAULT_REASON,)


def is_holdable_source(source: str) -> bool:
    """/facts, /facts/batch, memory-contract writes and the background passes' writes can
    be held; chat and documents are flagged."""
    return source in (
        "facts",
        "facts_batch",
        "memory_command",
        "consolidation",
        "elaboration",
        "rollup",
        "gist",
    )


def is_replayable_source(source: str) -> bool:
    return source in ("facts", "facts_batch")


HOLDABLE_ROW_KINDS: Final = frozenset({"attribute", "relation", "action"})
UNSTORABLE_WHEN_HELD: Final = frozenset({"instruction", "uncertainty"})
