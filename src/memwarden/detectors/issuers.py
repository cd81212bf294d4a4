"""Issuer formats that prove themselves: checksums, decodable structure, no filler.

A token pattern alone flags `ghp_xxxx…`, an `AKIA…EXAMPLE` from the AWS docs and keys that
were altered to look real. Where the issuer publishes a check we run it: GitHub's and npm's
tokens end in a CRC32 of their random part in base62, and a JWT's header is base64url JSON
naming an `alg`. A token failing its check is not dropped everywhere: next to a secret-named
key the assignment rules still judge its value, but it is no longer a finding on its own.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import string
import zlib
from collections.abc import Iterator
from typing import Final

_BASE62: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

# `ghp_` + 30 random + 6 checksum characters; npm's `npm_` tokens follow the same scheme.
CHECKSUMMED_TOKEN: Final = re.compile(r"\b(?:gh[pousr]|npm)_[A-Za-z0-9]{36}\b")
GITHUB_PAT: Final = re.compile(r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b")
# Refresh tokens are longer and carry no published checksum: format and no filler only.
GITHUB_REFRESH: Final = re.compile(r"\bghr_[A-Za-z0-9]{76}\b")
JWT_SHAPE: Final = re.compile(
    r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]{8,}={0,2})?"
    r"(?![A-Za-z0-9_-])"
)
AWS_KEY_ID: Final = re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b")
# A body that is filler, not random: a run of one character, or an obvious mask word.
_FILLER: Final = re.compile(r"(.)\1{5,}|x{4,}|X{4,}|EXAMPLE|example|0{6,}", re.IGNORECASE)


def base62(number: int, width: int = 6) -> str:
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = _BASE62[rest] + digits
    return digits.rjust(width, "0")


def checksum_ok(token: str) -> bool:
    """True when the last six characters are the base62 CRC32 of the 30 before them."""
    body = token.partition("_")[2]
    if not body or len(body) != 36:
        return False
    return base62(zlib.crc32(body[:30].encode("ascii"))) == body[30:]


# A short unit said over and over (`123123123123`, `DEADBEEFDEADBEEF`, `abab...`): a unit of 2
# to 8 characters seen at least three times in a row over 12 or more characters. A random
# base62 body repeats so by chance with odds far below one in a billion.
_PERIODIC: Final = re.compile(
    "|".join(
        rf"(.{{{unit}}})\{group}{{{max(3, -(-12 // unit)) - 1},}}"
        for group, unit in enumerate(range(2, 9), start=1)
    )
)
# Counting runs (`abcdefgh`, `12345678`, `ABCDEFGHIJ`): detect-secrets drops a value that is a
# run of the alphabet or the digits (`filters.heuristic.is_sequential_string`); eight in a row
# inside a random body are as unlikely as the period above.
_SEQUENCE_RUN: Final = 8
_SEQUENCE: Final = re.compile(
    "|".join(
        re.escape(alphabet[i : i + _SEQUENCE_RUN])
        for alphabet in (string.digits, string.ascii_lowercase, string.ascii_uppercase)
        for i in range(len(alphabet) - _SEQUENCE_RUN + 1)
    )
)


def has_sequence(value: str) -> bool:
    """True when `value` holds eight characters counting up by one (`cdefghij`, `23456789`)."""
    return _SEQUENCE.search(value) is not None


def is_periodic(value: str) -> bool:
    """True when a unit of 2-8 characters repeats, three times or more, over 12 characters."""
    return _PERIODIC.search(value) is not None


def is_filler(body: str) -> bool:
    """Placeholder bodies: `xxxx`, `XXXX`, `000000`, one repeated character, `EXAMPLE`,
    a unit said over and over (`123123123...`) or a counting run (`abcdefgh`)."""
    return bool(_FILLER.search(body)) or is_periodic(body) or has_sequence(body)


def _b64json(segment: str) -> object:
    padded = segment + "=" * (-len(segment) % 4)
    try:
        return json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None


def jwt_ok(token: str) -> bool:
    """A JWT whose header decodes to a JSON object naming `alg` or `typ`, payload to JSON."""
    parts = token.rstrip("=").split(".")
    header = _b64json(parts[0])
    if not isinstance(header, dict) or not ({"alg", "typ"} & header.keys()):
        return False
    return isinstance(_b64json(parts[1]), dict)


def aws_key_id_ok(token: str) -> bool:
    """An AWS access key id with a random body, not AWS's documented example or filler."""
    return not is_filler(token[4:]) and len(set(token[4:])) >= 6


def find_issuer_tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """(rule, start, end) for tokens whose issuer check passes."""
    if "_" in text:
        for m in CHECKSUMMED_TOKEN.finditer(text):
            if checksum_ok(m.group()):
                rule = "npm_token" if m.group().startswith("npm") else "github_token"
                yield rule, m.start(), m.end()
        for pattern in (GITHUB_PAT, GITHUB_REFRESH):
            for m in pattern.finditer(text):
                if not is_filler(m.group().partition("_")[2]):
                    yield "github_token", m.start(), m.end()
    if "eyJ" in text:
        for m in JWT_SHAPE.finditer(text):
            if jwt_ok(m.group()):
                yield "jwt", m.start(), m.end()


_SLACK_DIGITS: Final = re.compile(r"-\d{6,}-")
_SLACK_TAIL: Final = re.compile(r"[-/][A-Za-z0-9/+]{8,}$")


def slack_ok(token: str) -> bool:
    """A Slack token with its numeric team/user segments and a random tail, not a mask."""
    if is_filler(token):
        return False
    if token.startswith("xoxe") and len(token) >= 100:
        return True
    return bool(_SLACK_DIGITS.search(token) and _SLACK_TAIL.search(token))


# Keys published as examples, so never anyone's secret: AWS's documentation key id, and the
# Firebase Android SDK sample API keys that gitleaks allowlists in its `gcp-api-key` rule
# (gitleaks, MIT licence, cmd/generate/config/rules/gcp.go).
PUBLIC_EXAMPLE_KEYS: Final = frozenset(
    [
        "AKIAIOSFODNN7EXAMPLE",
        "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
        "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
        "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
        "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
        "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
        "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
        "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
        "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
        "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
        "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
        "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
        "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
        "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
        "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
        "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
        "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
    ]
)


def plausible(token: str) -> bool:
    """False for a vendor-prefixed token that fails its issuer's shape (placeholders, masks)."""
    if token in PUBLIC_EXAMPLE_KEYS:
        return False
    if token.startswith(("xox", "xapp-")):
        return slack_ok(token)
    if AWS_KEY_ID.fullmatch(token):
        return aws_key_id_ok(token)
    return not is_filler(token)
