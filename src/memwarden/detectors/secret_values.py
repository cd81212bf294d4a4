"""What a secret's value looks like: placeholders, identifiers and generated tokens.

Shared by the assignment rules (`credentials`) and the prose and command-line rules
(`credential_prose`): both must agree that `${DB_PASSWORD}` stands for a secret without being
one, and that a commit hash or a trace id is an identifier, not a key.
"""

from __future__ import annotations

import re
from typing import Final

_PLACEHOLDER_WORDS: Final = frozenset(
    {
        "null",
        "none",
        "nil",
        "true",
        "false",
        "undefined",
        "empty",
        "changeme",
        "change_me",
        "placeholder",
        "password",
        "secret",
        "token",
        "redacted",
        "xxx",
        "example",
        "dummy",
        "todo",
        "tbd",
        "notset",
        "not_set",
        "required",
        "optional",
        "string",
        "str",
        "test",
        "your_password",
        "yourpassword",
        "mypassword",
        "hidden",
        "unknown",
        "n/a",
        "na",
        "default",
    }
)
_PLACEHOLDER_SHAPE: Final = re.compile(
    r"""^(?:\$\$?\{.*\}|\{\{.*\}\}|\$\{.*|<.*>|%.*%|\[.*\]|\(.*|\*+|_{3,}|-{3,}|x{3,}|X{3,}|"""
    r"""\.{3,}|"""
    r"""\$[A-Za-z_]\w*|![A-Z][a-z]+.*|(?:os\.environ|process\.env|getenv|env\().*|"""
    r"""your[-_ ].*|.*[-_]here|.*\{\{.*|.*\$\{.*)$""",
    re.IGNORECASE,
)
_CONSTANT_CASE: Final = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
UUID: Final = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)
DIGEST: Final = re.compile(
    r"^(?:sha\d+[:-])?(?:[0-9a-f]{7,8}|[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$"
)
PUBLIC_KEY_VALUE: Final = re.compile(
    r"^(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|AAAAB3NzaC1|AAAAC3Nza)"
)
B64_CHARS: Final = re.compile(r"^[A-Za-z0-9+/=_-]+$")
HEX_CHARS: Final = re.compile(r"^[0-9a-fA-F]+$")


def norm_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


# Subresource-integrity and prefixed digests: `sha512-<base64>`, `sha256:<hex>`, `md5:<hex>`.
SRI_DIGEST: Final = re.compile(r"^(?:sha(?:1|224|256|384|512)|md5)[-:][A-Za-z0-9+/=]{16,}$", re.I)
# ULIDs and Mongo ObjectIds: identifiers of fixed length and alphabet.
ULID: Final = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


def is_identifier_shaped(value: str) -> bool:
    """A UUID, hex digest or commit hash, ObjectId, ULID or integrity hash: names, not secrets."""
    lowered = value.lower()
    return bool(
        UUID.match(value)
        or DIGEST.match(lowered)
        or SRI_DIGEST.match(value)
        or ULID.match(value)
        or (len(value) == 24 and HEX_CHARS.match(value))
    )


def is_placeholder(value: str, key: str = "") -> bool:
    """Values that stand for a secret without being one (templates, masks, env names)."""
    stripped = value.strip().strip("\"'`")
    if len(stripped) < 3:
        return True
    if stripped.lower() in _PLACEHOLDER_WORDS or stripped.startswith("[REDACTED"):
        return True
    if key and norm_key(stripped) == norm_key(key):
        return True
    if _CONSTANT_CASE.match(stripped):  # names an environment variable, not its value
        return True
    return bool(_PLACEHOLDER_SHAPE.match(stripped))


def char_classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
