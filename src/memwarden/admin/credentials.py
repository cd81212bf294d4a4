"""API key format and hashing (pure).

A key reads `mwk_<key id hex>_<secret>`: the id finds the row, the 256-bit secret is
checked against its SHA-256 digest. The secret is shown once and never stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid

PREFIX = "mwk_"


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def format_key(key_id: uuid.UUID, secret: str) -> str:
    return f"{PREFIX}{key_id.hex}_{secret}"


def parse_key(token: str) -> tuple[uuid.UUID, str] | None:
    """Split a presented key; None when it is not one of ours."""
    if not token.startswith(PREFIX):
        return None
    rest = token[len(PREFIX) :]
    key_hex, sep, secret = rest.partition("_")
    if not sep or len(key_hex) != 32 or not secret or len(secret) > 128:
        return None
    try:
        return uuid.UUID(hex=key_hex), secret
    except ValueError:
        return None


def secret_matches(secret: str, digest: bytes) -> bool:
    return hmac.compare_digest(hash_secret(secret), bytes(digest))
