"""Credentials said in sentences and typed into commands, not written as `key = value`.

People hand secrets to an assistant the way they would to a colleague: "the router login is
root / Tr0ub4dor&3", "username jdoe, password K_Gj3...", "the alarm code is 8842", a
`curl -u user:pass` line, a list of one-time backup codes. Each rule needs a credential word
*and* a value shaped like a secret, so prose about passwords ("the password must be 12
characters") and identifiers next to such words ("login 09:14") stay silent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from memwarden.detectors.findings import CREDENTIAL, Finding
from memwarden.detectors.secret_values import (
    char_classes,
    cut_stand_in,
    is_identifier_shaped,
    is_placeholder,
)

# "<key> [for|of|on the NAS|my account] (is|was|:|=|nothing) <value>".
_PLAIN_KEYS: Final = (
    r"password|passwort|passcode|passphrase|passwd|pwd|pw|pass|pin|contraseña|"
    r"mot de passe|api key|secret key|recovery key|wi-?fi key|wpa2? key|key|"
    r"(?:(?:api|access|auth|bearer|bot|refresh|personal\s+access)\s+)?token|"
    r"(?:(?:webhook|client|shared|signing)\s+)?secret|"
    r"(?:2fa|mfa|totp|otp)\s+(?:seed|secret|key)|"
    r"(?:alarm|door|gate|garage|access|entry|keypad|security|unlock|safe)\s+code|"
    r"(?:safe\s+|lock\s+)?combination"
)
# The keys alone, matched on lowercased text: far cheaper than the case-insensitive pattern.
_PLAIN_KEY_LOWER: Final = re.compile(r"\b(?:" + _PLAIN_KEYS + r")\b")
_PLAIN: Final = re.compile(
    r"(?i:\b(?P<key>" + _PLAIN_KEYS + r")\b)"
    r"(?P<about>\s+(?:for|of|to|on|at)\s+(?:the\s+|my\s+|our\s+|your\s+|this\s+|that\s+)?"
    r"[\w'.-]+(?:\s+[\w'.-]+){0,2}?)?"
    r"(?P<aside>\s*\([^)\n]{1,30}\))?"  # "API token (read only): ..."
    r"(?:\s+(?P<verb>is|was|are|ist|es|est|=|->)|\s*(?P<colon>[:=])|(?(about)(?!)|(?P<bare>)))"
    # A quoted value may hold spaces (a passphrase); an unquoted one is one token.
    r"\s+(?:(?P<q>[\"'`])(?P<qval>[^\"'`\n]{3,80})(?P=q)|(?P<val>[^\s\"'`]+))"
)
# What follows the word unquoted but is no value: the end of a template or element
# (`{{ password }}</pw>`), a subscript or call (`secrets["password"]`, `load_password()`).
_NOT_A_VALUE: Final = re.compile(r"[}\])>]|[A-Za-z_][\w.]*[\[(]")
_CODE_KEYS: Final = ("code", "combination", "pin")
_SEED_KEYS: Final = ("seed", "2fa", "mfa", "totp", "otp")
_BASE32: Final = re.compile(r"^[A-Z2-7]{16,}=*$")
_CODE_VALUE: Final = re.compile(r"^\d(?:[\d-]*\d)?$")

# "login is root / pw", "creds: jdoe:pw", "user sam / ...": a cue word, then within the same
# line a user, a slash or colon, and a value.
_PAIR_CUE: Final = re.compile(  # matched on lowercased text
    r"\b(?:log\s?in|logon|sign[\s-]?in|creds|credentials|account|user(?:name)?)\b"
)
_PAIR: Final = re.compile(
    r"(?<![\w@.+/:-])(?P<user>[A-Za-z0-9._@+-]{2,64})[ \t]*(?:/|:)[ \t]*(?P<val>[^\s,;'\"]{6,})"
)
_PAIR_WINDOW: Final = 60
# "u: root p: toor1234!", "user=ops pw=...": a one-letter or short user key then a password key.
_SHORT_KEYS: Final = re.compile(  # matched on lowercased text
    r"\bu(?:ser)?\s*[:=]\s*[^\s,;/]+\s*[,;/]?\s*\bp(?:w|wd|ass)?\s*[:=]\s*"
    r"(?P<q>[\"'`]?)(?P<val>[^\s\"'`]+)(?P=q)"
)
# A `.pgpass` line: host:port:database:user:password.
_PGPASS: Final = re.compile(r"(?m:^[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:[\w.*@-]+:(?P<val>\S+)$)")
# "sign in as jdoe with BbC^...", "log in as admin using pw".
_SIGN_IN_AS: Final = re.compile(  # matched on lowercased text
    r"\b(?:sign|log)(?:ged)?[\s-]?in\s+as\s+[^\s,]+\s+(?:with|using)"
    r"(?:\s+(?:password|pw|pass))?\s+(?P<q>[\"'`]?)(?P<val>[^\s\"'`]+)(?P=q)"
)

# Command lines: `curl -u user:pw`, `--password pw`, `mysql -pPW`, `docker login -p pw`,
# requests' `auth=('user', 'pw')`.
_USER_COLON_PASS: Final = re.compile(
    r"(?:^|\s)(?:-u|--user)[ \t]+(?P<q>['\"]?)[^\s:'\"]+:(?P<val>[^\s'\"]+)(?P=q)"
)
_LONG_FLAG: Final = re.compile(
    r"(?:^|\s)--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret)"
    r"(?:=|[ \t]+)(?P<q>['\"]?)(?P<val>[^\s'\"-][^\s'\"]*)(?P=q)"
)
_SHORT_FLAG_COMMANDS: Final = re.compile(
    r"\b(?:mysql\w*|mariadb\w*|(?:docker|podman|nerdctl|helm\s+registry|oras)\s+login|"
    r"sshpass|redis-cli)\b"
)
_SHORT_FLAG_WORDS: Final = ("mysql", "mariadb", "login", "sshpass", "redis-cli")
_SHORT_FLAG: Final = re.compile(
    r"(?:^|\s)-[pa](?:[ \t]+)?(?P<q>['\"]?)(?P<val>[^\s'\"-][^\s'\"]*)(?P=q)"
)
_AUTH_TUPLE: Final = re.compile(
    r"\bauth\s*=\s*[(\[]\s*(['\"])[^'\"\n]*\1\s*,\s*(['\"])(?P<val>[^'\"\n]+)\2"
)

# "backup codes: 4821-9932 1177-0456 ..." - three or more one-time codes after the cue.
_CODES_CUE: Final = re.compile(  # matched on lowercased text
    r"\b(?:backup|recovery|scratch|one[\s-]time|2fa|mfa|emergency|verification)"
    r"(?:\s+[\w-]+){0,2}?\s+codes?\b"
)
_CODE_TOKEN: Final = re.compile(
    r"(?<![\w-])(?:[A-Za-z0-9]{4,5}-[A-Za-z0-9]{4,5}|\d{6,10})(?![\w-])"
)
_CODES_WINDOW: Final = 400
# An issue-tracker key ("QA-1234", "OPS-77"): "make it pass QA-1234" names a ticket.
_TICKET_KEY: Final = re.compile(r"^[A-Z][A-Z0-9]{1,9}-\d+[.,;:!?)]*$")
_MIN_CODES: Final = 3


def _finding(detector: str, start: int, end: int, score: float) -> Finding:
    return Finding(CREDENTIAL, detector, start, end, score)


def _looks_generated(value: str, *, min_length: int = 6) -> bool:
    """Mixed characters with a digit or symbol: `K_Gj3UGw`, `Blue-Harbor-1987`, not `reset`."""
    if len(value) < min_length or "://" in value or value.startswith(("/", "~", "./")):
        return False
    if is_identifier_shaped(value) or value.isdigit() or _TICKET_KEY.match(value):
        return False
    has_digit_or_symbol = any(c.isdigit() or not c.isalnum() for c in value)
    return char_classes(value) >= 2 and has_digit_or_symbol


def _plain_value_ok(key: str, value: str, match: re.Match[str]) -> bool:
    lowered = key.lower()
    quoted = match.group("q") is not None
    bare = match.group("bare") is not None
    if quoted and " " in value:  # a quoted phrase counts only where phrases are secrets
        return lowered.startswith("pass") and len(value) >= 8
    if lowered.endswith(_CODE_KEYS):
        digits = sum(c.isdigit() for c in value)
        return bool(_CODE_VALUE.match(value)) and digits >= 4
    if lowered.startswith(_SEED_KEYS) and lowered.endswith(("seed", "secret", "key")):
        return bool(_BASE32.match(value)) or _looks_generated(value, min_length=12)
    if lowered == "key":  # a bare "key" is everywhere: only a clearly generated value counts
        return char_classes(value) >= 3 and _looks_generated(value, min_length=8)
    if value.isdigit():
        return not bare and len(value) >= 4
    if bare and lowered == "pass":  # also a verb: "pass test_auth2", "pass the salt"
        has_both_cases = any(c.islower() for c in value) and any(c.isupper() for c in value)
        return has_both_cases and _looks_generated(value)
    if bare and not quoted:
        return _looks_generated(value)
    # Outside quotes, a lowercase word is probably prose ("password is required").
    return quoted or char_classes(value) >= 2


# Every key ends in one of these words; the keys are looked for only just before each of them
# (a scan for the words costs a sixth of the keys' alternation tried at every word).
_PLAIN_TERMINAL: Final = re.compile(r"pass|pw|pin|contrase|key|token|secret|code|combination|seed")
_KEY_REACH: Final = 32  # the longest key before its last word ("personal access token")


def _plain_keys(lowered: str) -> Iterator[re.Match[str]]:
    """The keys `_PLAIN_KEY_LOWER.finditer` gives, found near their last words only."""
    covered = 0  # end of the last key given: keys do not overlap, as with finditer
    for word in _PLAIN_TERMINAL.finditer(lowered):
        if word.end() <= covered:
            continue
        start = max(covered, word.start() - _KEY_REACH)
        end = min(len(lowered), word.end() + 16)
        for key in _PLAIN_KEY_LOWER.finditer(lowered, start, end):
            # Only the key that holds this word: the window's end may cut a later key short.
            if covered <= key.start() <= word.start() and key.end() >= word.end():
                covered = key.end()
                yield key
                break


def _plain_matches(text: str) -> Iterator[re.Match[str]]:
    lowered = _lowered(text)
    if lowered is text:  # lowercasing would move offsets (rare scripts), or nothing to lower
        yield from _PLAIN.finditer(text)
        return
    for key in _plain_keys(lowered):
        if (match := _PLAIN.match(text, key.start())) is not None:
            yield match


def _plain_language(text: str) -> Iterator[Finding]:
    seen: set[int] = set()
    for match in _plain_matches(text):
        key = re.sub(r"\s+", " ", match.group("key"))
        quoted = match.group("q") is not None
        value = match.group("qval") if quoted else match.group("val").rstrip(".,;:!?)")
        if not value or is_placeholder(value, key):
            continue
        if not quoted and (_NOT_A_VALUE.match(value) or "</" in value):
            continue
        if not quoted and cut_stand_in(match.group("val"), text[match.end("val") :]):
            continue
        if not _plain_value_ok(key, value, match):
            continue
        start = match.start("qval" if quoted else "val")
        if start not in seen:
            seen.add(start)
            yield _finding("plain_language_password", start, start + len(value), 0.8)


def _lowered(text: str) -> str:
    """Lowercased text with the same offsets; unchanged text when lowercasing would move them."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text


def _pair_values(text: str, *, cued: bool) -> Iterator[re.Match[str]]:
    for cue in _PAIR_CUE.finditer(_lowered(text)) if cued else ():
        line_end = text.find("\n", cue.end())
        end = min(cue.end() + _PAIR_WINDOW, len(text) if line_end < 0 else line_end)
        position = cue.end()
        # Candidates overlap ("NAS: deploy / pw"), so step one character past each start.
        while (match := _PAIR.search(text, position, end)) is not None:
            yield match
            position = match.start() + 1
    lowered = _lowered(text)
    if cued and " as " in lowered:
        yield from _SIGN_IN_AS.finditer(lowered)
    if any(key in lowered for key in ("p:", "p=", "pw", "pass")):
        yield from _SHORT_KEYS.finditer(lowered)
    if text.count(":") >= 4:
        yield from _PGPASS.finditer(text)


def _pairs(text: str, *, cued: bool = True) -> Iterator[Finding]:
    seen: set[int] = set()
    for match in _pair_values(text, cued=cued):
        # Some candidates were matched on lowercased text: read the value from the original.
        value = text[match.start("val") : match.end("val")].rstrip(".,;:!?)")
        start = match.start("val")
        if start in seen or "/" in value:  # a path or URL, not a password
            continue
        if "user" in match.groupdict() and match.group("user").isdigit():
            continue  # "account 123456789012/us-east-1": an account number and a region
        if is_placeholder(value) or not _looks_generated(value):
            continue
        seen.add(start)
        yield _finding("login_pair", start, start + len(value), 0.8)


def _command_lines(text: str) -> Iterator[Finding]:
    patterns = [p for p, cue in ((_USER_COLON_PASS, "-u"), (_LONG_FLAG, "--")) if cue in text]
    if "auth" in text:
        patterns.append(_AUTH_TUPLE)
    for pattern in patterns:
        for match in pattern.finditer(text):
            value = match.group("val")
            if is_placeholder(value) or len(value) < 4:
                continue
            yield _finding("command_line_secret", match.start("val"), match.end("val"), 0.9)
    if not any(word in text for word in _SHORT_FLAG_WORDS):
        return
    offset = 0
    for line in text.splitlines(keepends=True):
        if _SHORT_FLAG_COMMANDS.search(line):
            for match in _SHORT_FLAG.finditer(line):
                value = match.group("val")
                if is_placeholder(value) or len(value) < 4 or value.isdigit():
                    continue
                start = offset + match.start("val")
                yield _finding("command_line_secret", start, start + len(value), 0.9)
        offset += len(line)


def _code_lists(text: str) -> Iterator[Finding]:
    for cue in _CODES_CUE.finditer(_lowered(text)):
        window_end = min(len(text), cue.end() + _CODES_WINDOW)
        codes = [
            m
            for m in _CODE_TOKEN.finditer(text, cue.end(), window_end)
            if any(c.isdigit() for c in m.group())
        ]
        if len(codes) >= _MIN_CODES:
            yield _finding("backup_codes", codes[0].start(), codes[-1].end(), 0.9)


_PLAIN_ANCHORS: Final = (
    "pass",
    "pw",
    "pin",
    "key",
    "token",
    "seed",
    "secret",
    "code",
    "combination",
    "contraseña",
)
_PAIR_ANCHORS: Final = ("log", "sign", "cred", "account", "user")
_CODES_ANCHORS: Final = (
    "backup",
    "recovery",
    "scratch",
    "one-time",
    "one time",
    "2fa",
    "mfa",
    "emergency",
    "verification",
)


def find_credentials_in_prose(text: str) -> list[Finding]:
    """Credential spans said in words, login pairs, command lines and one-time code lists."""
    # Each rule runs only when a word it needs is in the text: most text has none of them.
    lowered = text.lower()
    findings: list[Finding] = []
    if any(anchor in lowered for anchor in _PLAIN_ANCHORS):
        findings.extend(_plain_language(text))
    if "/" in text or ":" in text or "=" in text or " as " in lowered:
        findings.extend(_pairs(text, cued=any(anchor in lowered for anchor in _PAIR_ANCHORS)))
    if " -" in text or text.startswith("-") or "\n-" in text or "auth" in lowered:
        findings.extend(_command_lines(text))
    if "code" in lowered and any(anchor in lowered for anchor in _CODES_ANCHORS):
        findings.extend(_code_lists(text))
    return findings
