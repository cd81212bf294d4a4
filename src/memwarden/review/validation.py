"""Checks on caller-supplied strings (pure); a failure is a ValueError naming the rule."""

from __future__ import annotations

import unicodedata

MAX_EVIDENCE_BYTES = 2048
MAX_IDEMPOTENCY_KEY_CHARS = 200
MAX_CONTENT_CHARS = 16_000


def has_control(value: str, allowed: str = "") -> bool:
    return any(unicodedata.category(ch) == "Cc" and ch not in allowed for ch in value)


def check_evidence_ref(value: str) -> str:
    """Non-blank, at most 2,048 UTF-8 bytes, no control characters. Stored as given."""
    if not value.strip():
        raise ValueError("evidence_ref must not be blank")
    if len(value.encode("utf-8")) > MAX_EVIDENCE_BYTES:
        raise ValueError(f"evidence_ref is longer than {MAX_EVIDENCE_BYTES} UTF-8 bytes")
    if has_control(value):
        raise ValueError("evidence_ref must not contain control characters")
    return value


def check_idempotency_key(value: str) -> str:
    if not value.strip():
        raise ValueError("idempotency_key must not be blank")
    if len(value) > MAX_IDEMPOTENCY_KEY_CHARS:
        raise ValueError(f"idempotency_key is longer than {MAX_IDEMPOTENCY_KEY_CHARS} characters")
    if has_control(value):
        raise ValueError("idempotency_key must not contain control characters")
    return value


def check_content(value: str) -> str:
    """A note's text: non-blank, at most 16,000 characters; tabs and newlines allowed."""
    if not value.strip():
        raise ValueError("content must not be blank")
    if len(value) > MAX_CONTENT_CHARS:
        raise ValueError(f"content is longer than {MAX_CONTENT_CHARS} characters")
    if has_control(value, allowed="\n\r\t"):
        raise ValueError("content must not contain control characters other than tab/newline")
    return value
