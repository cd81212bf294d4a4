"""The CPU-bound steps on a parsed document's text, run in a parser child as one call:
PII redaction (when the Context enables it), chunking, and the injection scan of the
chunks. Each is linear in the text but slow in Python (redaction ~10 µs a character), so
on a long document they would hold the GIL for minutes if they ran in a thread."""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.child_pool import ChildPool
from memwarden.detectors.redaction import redact
from memwarden.documents.chunking import chunk
from memwarden.documents.parse import in_child
from memwarden.domain.reconcile_rules import Incoming
from memwarden.pipeline.injection_scan import scan_items

PREPARE_BUDGET_S = 120.0


@dataclass(frozen=True)
class PreparedText:
    text: str  # redacted when asked
    chunks: list[str]
    scan: list[Incoming]  # the injection scanner's uncertainty row, if a cue fired


def prepare_text(text: str, redact_pii: bool) -> PreparedText:
    if redact_pii:
        text = redact(text).text
    chunks = chunk(text)
    return PreparedText(text, chunks, scan_items(chunks))


async def prepare_within(
    pool: ChildPool, text: str, redact_pii: bool, budget_s: float = PREPARE_BUDGET_S
) -> PreparedText:
    """`prepare_text` in a child of `pool`; past the budget `parse_timeout`."""
    return await in_child(pool, budget_s, "redaction and chunking", prepare_text, text, redact_pii)
