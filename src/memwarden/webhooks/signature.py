"""The `Memwarden-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
`"<t>.<body>"` with the subscription's secret (pure; receivers import `verify`).

The timestamp is inside what is signed, so a receiver that refuses old timestamps refuses
a replayed request: `verify` allows `tolerance_s` (300 s) either way.
"""

from __future__ import annotations

import hashlib
import hmac
import time

HEADER = "Memwarden-Signature"
SCHEME = "v1"
DEFAULT_TOLERANCE_S = 300


def digest(secret: str, timestamp: int, body: bytes) -> str:
    message = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The header value for `body` sent at `timestamp`."""
    return f"t={timestamp},{SCHEME}={digest(secret, timestamp, body)}"


def parse(header: str) -> tuple[int, list[str]] | None:
    """The timestamp and every v1 signature of a header; None when it has no timestamp."""
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        name, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if name == "t" and value.isascii() and value.isdigit() and len(value) <= 15:
            timestamp = int(value)
        elif name == SCHEME:
            signatures.append(value)
    return None if timestamp is None else (timestamp, signatures)


def verify(
    secret: str,
    header: str,
    body: bytes,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """True when one v1 signature matches `body` and the timestamp is within
    `tolerance_s` of `now` (the clock by default); compares in constant time."""
    parsed = parse(header)
    if parsed is None:
        return False
    timestamp, signatures = parsed
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_s:
        return False
    expected = digest(secret, timestamp, body)
    return any(hmac.compare_digest(expected, s) for s in signatures)
