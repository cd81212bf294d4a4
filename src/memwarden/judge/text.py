"""What the judge reads and keeps: defensively redacted text, excerpts, row renderings.

Redaction is idempotent, so redacting text the write path already redacted changes
nothing; doing it again here means a gate can never send or store an unredacted card
number even when a caller forgets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from memwarden.config import ContextConfig
from memwarden.detectors import redact
from memwarden.gatekeeper import RowInput
from memwarden.models.sanitize import frame_untrusted

EXCERPT_CHARS: Final = 500
_LEAD: Final = 100


def guarded(text: str, config: ContextConfig) -> str:
    """The text a gate may judge, store or send: redacted when the Context redacts."""
    return redact(text).text if config.pii_redaction_enabled else text


def guarded_value(value: Any, config: ContextConfig) -> Any:
    """Redact every string inside a JSON value (retained payloads, row data)."""
    if not config.pii_redaction_enabled:
        return value
    if isinstance(value, str):
        return redact(value).text
    if isinstance(value, list):
        return [guarded_value(v, config) for v in value]
    if isinstance(value, dict):
        return {k: guarded_value(v, config) for k, v in value.items()}
    return value


def excerpt(text: str, focus: int | None = None, lead: int = _LEAD) -> str:
    """At most 500 characters, starting `lead` characters before `focus` (a finding)."""
    if len(text) <= EXCERPT_CHARS:
        return text
    start = 0
    if focus is not None and focus + 1 > EXCERPT_CHARS - lead:
        start = min(max(0, focus - lead), len(text) - EXCERPT_CHARS)
    return text[start : start + EXCERPT_CHARS]


def row_text(row: RowInput) -> str:
    """A row's values as one string, what detectors scan and excerpts show.

    Values only: field names and kind labels ("instruction:") would read as markers
    to the injection scanner and flag every instruction row.
    """
    return " | ".join(_flat(v) for v in row.data.values() if v not in (None, "", []))


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def rows_payload(rows: Sequence[RowInput], config: ContextConfig) -> str:
    """The row judge's user message: a JSON array of objects with the caller's ids."""
    items = []
    for row in rows:
        data = {k: v for k, v in row.data.items() if k not in ("id", "kind")}
        items.append({"id": row.id, "kind": row.kind, **guarded_value(data, config)})
    return json.dumps(items, ensure_ascii=False)


def window_message(window: str) -> str:
    """The judge's user message: the window between fixed markers, and nothing else.

    The same frame as extraction's, whose markers inside the content are defused: content
    that writes its own end marker cannot step outside the frame and address the judge."""
    return frame_untrusted(window)
