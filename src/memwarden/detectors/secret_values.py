"""What a secret's value looks like: placeholders, identifiers and generated tokens.

Shared by the assignment rules (`credentials`) and the prose and command-line rules
(`credential_prose`): both must agree that `${DB_PASSWORD}` stands for a secret without being
one, and that a commit hash or a trace id is an identifier, not a key.
"""

from __future__ import annotations

import re
from functools import lru_cache
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
        "pass",
        "passwd",
        "pwd",
        "user",
        "username",
        "apikey",
        "api_key",
        "secret_key",
        "access_token",
        "bearer",
        "basic",
        "digest",
    }
)
# Templates are matched only when well formed (`${NAME}`, `{{ .Values.x }}`, `$(cmd)`): a
# generated password may well hold `${` or `{{` among other punctuation.
_TEMPLATE: Final = r"""\$\$?\{\{?[\w.\s:|'"-]*\}\}?|\{\{-?[\s\w.|$:="',()-]*\}\}|\$\([^()]*\)"""
_PLACEHOLDER_SHAPE: Final = re.compile(
    rf"""^(?:{_TEMPLATE}|<.*>|&lt;.*&gt;|%.*%|\[.*\]|\(.*|\*+|_{{3,}}|-{{3,}}|x{{3,}}|X{{3,}}|"""
    r"""\.{3,}|#+|\$\(.*|\.\$.*|\$[A-Za-z_]\w*\[.*|"""
    r"""\$\$?[A-Za-z_]\w*|![A-Z][a-z]+.*|(?:os\.environ|process\.env|getenv|env\().*|"""
    # A name in single braces (`{password}`, `{ NPM_TOKEN }`), a format field left empty or
    # numbered (`prefix_{}`, `{0}`): string templates filled in at run time
    # (a name in one case or camelCase; `{ZqL5kVrX1n8tA2}` is a braced value, not a name).
    r"""\{\s*(?-i:[a-z_][a-z0-9_.]*|[A-Z_][A-Z0-9_.]*|[a-z]+(?:[A-Z][a-z0-9]+)+)\s*\}|"""
    r"""[\w./:-]*\{\d*\}[\w./:{}-]*|"""
    r"""your[-_ ].*|.*[-_]here)$""",
    re.IGNORECASE,
)
_TEMPLATE_ANYWHERE: Final = re.compile(_TEMPLATE)
# Words that mark a value as a stand-in wherever they sit in it (detect-secrets' own rule for
# `fake`); `example` also covers AWS's documented `...EXAMPLE` keys.
# Lower case only for `fake`/`dummy`: `...zFAKEdzC6...` inside a random key is chance.
# A value that says it is not real (`not_a_real_token`, `NotARealKey`) is a stand-in as well.
_FILLER_WORDS: Final = re.compile(
    r"fake|dummy|(?i:example|placeholder|changeme|redacted|not[-_ ]?a?[-_ ]?real(?!ly))"
)
# Filler: one character repeated, or a long run of x/X/0/#/* inside the value.
_FILLER_RUN: Final = re.compile(r"(.)\1{7,}|[xX]{4,}|#{4,}|\*{4,}|0{8,}")
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


@lru_cache(maxsize=4096)
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
    stripped = value.strip().strip("\"'`").lstrip("\\")
    if len(stripped) < 3:
        return True
    bare = stripped.strip("<>()[]{}")
    if bare.lower() in _PLACEHOLDER_WORDS or stripped.startswith("[REDACTED"):
        return True
    if key and norm_key(stripped) == norm_key(key):
        return True
    if _CONSTANT_CASE.match(stripped):  # names an environment variable, not its value
        return True
    if len(set(stripped)) == 1 or _FILLER_WORDS.search(stripped) or _FILLER_RUN.search(stripped):
        return True
    if _PLACEHOLDER_SHAPE.match(stripped):
        return True
    # A template anywhere in the value (`prefix-${ENV}-suffix`); searched on its own, since
    # `.*(?:template).*` inside the shape above retried the template at every offset.
    return ("{" in stripped or "$(" in stripped) and _TEMPLATE_ANYWHERE.search(stripped) is not None


_CLOSERS: Final = {"<": ">", "{": "}", "[": "]"}


def cut_stand_in(value: str, rest: str) -> bool:
    """True for an unquoted value cut at a space inside brackets that close later on the line.

    `AUTH_TOKEN=<an authorization token>`, `password: [the password you chose]`: an unquoted
    value ends at the first space, so the rules see `<an` or `[the`; the closing bracket
    further on shows it is the start of a stand-in written in words.
    """
    closer = _CLOSERS.get(value[:1])
    if closer is None or closer in value:
        return False
    line_end = rest.find("\n")
    return closer in (rest if line_end < 0 else rest[:line_end])


def char_classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
