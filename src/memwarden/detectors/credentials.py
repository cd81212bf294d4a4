"""Credentials: known token formats, secret-named assignments, and entropy in assignments.

Three layers, cheapest first: our own token patterns (which also give the exact span to
redact), detect-secrets' regex plugins for vendor formats we do not list ourselves, and a
key/value pass that trusts the *name* of a field ("password", "api_key") more than the shape
of its value. Placeholders and public material are dropped at every layer, because a memory
full of `${DB_PASSWORD}` false alarms teaches reviewers to ignore the judge.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Final

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from memwarden.detectors.assignments import MULTI_ASSIGN, iter_pairs
from memwarden.detectors.credential_prose import find_credentials_in_prose
from memwarden.detectors.findings import CREDENTIAL, Finding
from memwarden.detectors.issuers import find_issuer_tokens, plausible
from memwarden.detectors.secret_values import (
    B64_CHARS,
    HEX_CHARS,
    PUBLIC_KEY_VALUE,
    char_classes,
    cut_stand_in,
    is_identifier_shaped,
    is_placeholder,
    norm_key,
)

# Vendor formats with a fixed prefix: precise enough to need no context.
_TOKEN_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("openai_key", r"\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{20,}"),
        ("stripe_key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("gitlab_token", r"\bglpat-[A-Za-z0-9_-]{20,}"),
        ("slack_token", r"\bxox[abposre]-[A-Za-z0-9-]{10,}"),
        ("slack_config_token", r"\bxoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{100,}"),
        ("slack_app_token", r"\bxapp-[0-9A-Za-z/+-]{20,}"),
        (
            "slack_webhook",
            r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_]+/[A-Za-z0-9_]+"
            r"/[A-Za-z0-9_]+",
        ),
        ("aws_access_key", r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b"),
        ("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
        # Azure AD client secrets: three characters, a digit, `Q~`, then 31-34 (gitleaks, MIT).
        (
            "azure_client_secret",
            r"(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])",
        ),
        ("huggingface_token", r"\bhf_[A-Za-z0-9]{30,}"),
        # Microsoft Teams incoming webhooks (the URL is the credential), in the legacy
        # `outlook.office.com/webhook/` and the `<tenant>.webhook.office.com/webhookb2/` forms;
        # and Mailgun's legacy `key-` + 32 API keys (both formats as Nosey Parker writes them).
        (
            "teams_webhook",
            r"https://(?:outlook\.office\.com/webhook|[\w-]+\.webhook\.office\.com/webhookb2)/"
            r"[0-9a-f-]{36}@[0-9a-f-]{36}/IncomingWebhook/[0-9a-f]{32}/[0-9a-f-]{36}",
        ),
        ("mailgun_key", r"\bkey-[0-9a-z]{32}\b"),
        # Vendor prefixes from the vendors' token-format pages, shapes as Nosey Parker's rules
        # (Apache-2.0) write them: Databricks, Doppler, Postman, RubyGems, Sourcegraph.
        ("databricks_token", r"\bdapi[a-f0-9]{32}(?:-\d+)?\b"),
        (
            "doppler_token",
            r"\bdp\.(?:(?:ct|pt|sa|scim|audit)\.|st\.(?:[a-z0-9_-]{2,35}\.)?)[A-Za-z0-9]{40,44}\b",
        ),
        ("postman_key", r"\bPMAK-[A-Za-z0-9]{24}-[A-Za-z0-9]{34}\b"),
        ("rubygems_key", r"\brubygems_[a-f0-9]{48}\b"),
        ("sourcegraph_token", r"\bsgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}\b"),
        ("sendgrid_key", r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}"),
        (
            "password_hash",
            r"\$(?:apr1|2[abxy]?|5|6|argon2id?)\$[./A-Za-z0-9=,$]{4,}\$?[./A-Za-z0-9]{16,}",
        ),
        ("auth_header", r"(?i:\b(?:basic|bearer))\s+[A-Za-z0-9._~+/-]{16,}=*"),
    )
)

# Patterns whose matches carry their own structure check (or none is published).
_UNCHECKED_PATTERNS: Final = frozenset({"password_hash", "slack_webhook", "teams_webhook"})
# Literals each token pattern needs; a pattern runs only when one is in the text.
_TOKEN_ANCHORS: Final[dict[str, tuple[str, ...]]] = {
    "openai_key": ("sk-",),
    "stripe_key": ("k_live_", "k_test_"),
    "gitlab_token": ("glpat-",),
    "slack_token": ("xox",),
    "slack_config_token": ("xoxe",),
    "slack_app_token": ("xapp-",),
    "slack_webhook": ("hooks.slack.com",),
    "aws_access_key": ("AKIA", "ASIA", "ABIA", "ACCA"),
    "google_api_key": ("AIza",),
    "azure_client_secret": ("Q~",),
    "huggingface_token": ("hf_",),
    "teams_webhook": ("IncomingWebhook",),
    "mailgun_key": ("key-",),
    "databricks_token": ("dapi",),
    "doppler_token": ("dp.",),
    "postman_key": ("PMAK-",),
    "rubygems_key": ("rubygems_",),
    "sourcegraph_token": ("sgp_",),
    "sendgrid_key": ("SG.",),
    "password_hash": ("$",),
    "auth_header": ("asic ", "earer ", "ASIC ", "EARER "),
}
# Same idea for detect-secrets' plugins (by class name); absent means "run on long tokens".
_PLUGIN_ANCHORS: Final[dict[str, tuple[str, ...]]] = {
    "ArtifactoryDetector": ("AKC", "AP"),
    "AWSKeyDetector": ("AKIA", "ASIA", "ABIA", "ACCA", "A3T", "aws", "AWS", "Aws"),
    "AzureStorageKeyDetector": ("AccountKey",),
    "GitLabTokenDetector": ("gl", "GR1348941"),
    "MailchimpDetector": ("-us",),
    "OpenAIDetector": ("sk-",),
    "PypiTokenDetector": ("pypi-",),
    "SendGridDetector": ("SG.",),
    "SlackDetector": ("xox", "XOX", "hooks.slack.com"),
    "SquareOAuthDetector": ("sq0csp",),
    "StripeDetector": ("k_live_",),
    "TelegramBotTokenDetector": (":",),
    "TwilioKeyDetector": ("AC", "SK"),
}

# Every anchor once: one pass of `in` over the text, then each pattern asks the set (a generator
# of `in` tests per pattern cost 85 µs per KiB, a sixth of these rules).
_ALL_ANCHORS: Final[tuple[str, ...]] = tuple(
    sorted({a for v in (*_TOKEN_ANCHORS.values(), *_PLUGIN_ANCHORS.values()) for a in v})
)
_TOKEN_ANCHOR_SETS: Final[dict[str, frozenset[str]]] = {
    name: frozenset(anchors) for name, anchors in _TOKEN_ANCHORS.items()
}
_PLUGIN_ANCHOR_SETS: Final[dict[str, frozenset[str]]] = {
    name: frozenset(anchors) for name, anchors in _PLUGIN_ANCHORS.items()
}

_PEM_PRIVATE: Final = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[^\n]*)",
    re.DOTALL,
)
_PUTTY_PRIVATE: Final = re.compile(r"PuTTY-User-Key-File-\d[^\n]*")

# scheme://user:password@host -> the password only.
# The user may be empty (`redis://:pw@host`, `amqp://:pw@mq:5672`) and the password may hold an
# `@`: the last `@` before the host ends it.
_URL_PASSWORD: Final = re.compile(
    r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:([^\s/]+)@(?=[A-Za-z0-9\[%])"
)

_DS_PLUGINS: Final[tuple[RegexBasedDetector, ...]] = (
    ArtifactoryDetector(),
    AWSKeyDetector(),
    AzureStorageKeyDetector(),
    DiscordBotTokenDetector(),
    GitLabTokenDetector(),
    MailchimpDetector(),
    OpenAIDetector(),
    PypiTokenDetector(),
    SendGridDetector(),
    SlackDetector(),
    SquareOAuthDetector(),
    StripeDetector(),
    TelegramBotTokenDetector(),
    TwilioKeyDetector(),
)
_B64: Final = Base64HighEntropyString()
_HEX: Final = HexHighEntropyString()
# detect-secrets' plugins only fire on a long token-like run; skip them on prose.
_DS_PREFILTER: Final = re.compile(r"[A-Za-z0-9_\-+/=.:]{20,}")

# key = value / key: value / "key": "value" / key => value; value may be quoted.
_ASSIGNMENT: Final = re.compile(
    # A key starts at a word's start: a failed key is not retried from every letter in it.
    r"""(?<![A-Za-z_$])(?P<key>[A-Za-z_$@][\w.\-$]*)"""
    r"""(?:\[(?P<sq>["']?)(?P<sub>[\w.-]*)(?P=sq)\])?["']?[ \t]*"""
    r"""(?::::=|::=|:=|\?=|\+=|!=|\.=|=>|->|=|:)[ \t]*@?"""
    r"""(?:\\?(?P<q>["'`])(?P<qval>[^"'`\n]*(?:(?!(?P=q))["'`][^"'`\n]*)*)(?P=q)"""
    r"""|(?P<val>[^\s;,&"'`]*))"""
)
_STRONG_SUFFIXES: Final = (
    "password",
    "passwords",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    "secret",
    "secrets",
    "token",
    "tokens",
    "apikey",
    "credential",
    "credentials",
    "auth",
    "authtoken",
    "privatekey",
    "secretkey",
    "accesskey",
    "clientsecret",
    "pass",
    "pw",
    "pat",
    "authorization",
    "creds",
    "secretdata",
    # SonarQube's scanner takes its token as `sonar.login` (documented; `sonar.token` since 10).
    "sonarlogin",
)
_NOT_SECRET_SUFFIXES: Final = (
    "bypass",
    "compass",
    "overpass",
    "surpass",
    "trespass",
    "underpass",
    "encompass",
    "publickey",
    "pubkey",
    "author",
    "path",
    "url",
    "uri",
    "endpoint",
    "file",
    "name",
    "type",
    "id",
    "length",
    "len",
    "count",
    "size",
    "enabled",
    "policy",
    "hint",
    "label",
    "prompt",
    "field",
    "message",
    "title",
    "description",
    "regex",
    "pattern",
    "format",
    "cachekey",
    "sortkey",
    "primarykey",
    "foreignkey",
    "partitionkey",
    "routingkey",
    "idempotencykey",
)
# Keys that name an identifier or a digest: their values are never judged on entropy alone
# (`span_id=00f067aa0ba902b7`, `"integrity": "sha512-..."`, `commit: 9fceb02`).
_IDENTIFIER_KEY_SUFFIXES: Final = (
    "id",
    "ids",
    "uid",
    "uuid",
    "guid",
    "hash",
    "sha",
    "digest",
    "checksum",
    "etag",
    "fingerprint",
    "integrity",
    "traceparent",
    "tracestate",
    "commit",
    "revision",
    "rev",
    "ref",
    "nonce",
    "state",
)
# `user:42:profile`, `orders.v2.created`: structured names made of words and numbers.
_STRUCTURED_NAME: Final = re.compile(r"^[A-Za-z_]+(?:[:.](?:[A-Za-z_]+|\d+|\{\w+\}))+$")
_MENTION_WORDS: Final = re.compile(r"password|passwd|secret|token|apikey|credential")


# `the_password_tag`, `db_password_value`: a secret word with a tail naming its carrier.
_KEY_TAIL: Final = re.compile(
    r"(?:(?<=password)|(?<=secret)|(?<=token)|(?<=apikey))"
    r"(?:tag|attribute|attr|att|value|val|string|str)$"
)


@lru_cache(maxsize=4096)  # keys repeat across lines and texts; the class is a pure function
def _key_class(key: str) -> str:
    """'strong' (named like a secret), 'weak' (…key), 'mention' (secret word inside), ''."""
    # A numbered key (`static_password07`, `token_2`) is named like the key without its number.
    norm = _KEY_TAIL.sub("", norm_key(key).rstrip("0123456789"))
    if not norm or "public" in norm:
        return ""
    if norm.endswith(_NOT_SECRET_SUFFIXES):
        return "mention" if _MENTION_WORDS.search(norm) else ""
    if norm.endswith(_STRONG_SUFFIXES):
        return "strong"
    if norm.endswith("key"):
        return "weak"
    if _MENTION_WORDS.search(norm):
        return "mention"
    return ""


# What a strong key may point at without holding a secret: a CSS selector (`#add-password`),
# a variable (`$input`, `$super$ecret`), a member or call (`this.apiKey`, `foo(hey)you`).
_CODE_REF: Final = re.compile(
    r"^(?:#[\w-]+|\\?\$[A-Za-z_].*|(?:this|self)\..*|[A-Za-z_][\w.]*[(\[].*)$"
)


# `api-key`, `my_secret`: a name of two lowercase words, not a generated value.
_WORDS_NAME: Final = re.compile(r"^[a-z]+[-_][a-z]+$")
# `cms/sites/passwords#edit`: a route or path of lowercase words.
_ROUTE: Final = re.compile(r"^[a-z_.-]+(?:/[a-z_.#:-]+)+$")


_DOTTED_NAME: Final = re.compile(r"^[A-Za-z_]+(?:\.[A-Za-z_]+)+$")
# `Password:`, `Username?`: a form label, one word and its punctuation.
_LABEL: Final = re.compile(r"^[A-Za-z]+[:?]$")


# `config/prod/db.yaml`, `usr/lib/python3.11`: segments that are words (one capital at most,
# at the start), not the mixed case of a base64 key that happens to hold a slash.
_PATH_SEGMENT: Final = re.compile(r"^[A-Za-z0-9]?[a-z0-9_.-]*$")
# `feature-flag-v2`, `user_42_profile`, `MY_APP_KEY_2`: words and numbers joined by separators.
_SEPARATED_NAME: Final = re.compile(r"^(?:[a-z]+|[A-Z]+|\d+)(?:[-_.:](?:[a-z]+|[A-Z]+|\d+|v\d+))+$")


def _path_like(value: str) -> bool:
    """A relative path of word segments (`a/b/c.txt`), not a key whose alphabet has `/`."""
    segments = value.split("/")
    return len(segments) >= 2 and all(s and _PATH_SEGMENT.match(s) for s in segments)


def _secret_shaped(value: str) -> bool:
    """A token that looks generated rather than a word, path, URL or number."""
    if len(value) < 8 or "://" in value or value.startswith(("/", "~", "./", "../")):
        return False
    if _path_like(value) or _SEPARATED_NAME.match(value):
        return False
    if is_identifier_shaped(value) or PUBLIC_KEY_VALUE.match(value):
        return False
    if _STRUCTURED_NAME.match(value) or _LABEL.match(value):
        return False
    if value.isdigit():
        return len(value) >= 16
    has_letter_and_digit = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    return char_classes(value) >= 3 or (has_letter_and_digit and len(value) >= 12)


def _high_entropy(value: str) -> bool:
    """detect-secrets' entropy limits, on values long enough to be keys."""
    if is_identifier_shaped(value) or PUBLIC_KEY_VALUE.match(value) or _path_like(value):
        return False
    if HEX_CHARS.match(value):
        return len(value) >= 16 and _HEX.calculate_shannon_entropy(value) > _HEX.entropy_limit
    if B64_CHARS.match(value) and len(value) >= 20 and char_classes(value) >= 3:
        return _B64.calculate_shannon_entropy(value) > _B64.entropy_limit
    return False


_SPACE: Final = re.compile(r"\s")


def _value_is_secret(value: str, key_class: str, key: str, *, sole_token: bool) -> bool:
    if not key_class and len(value) < 16:  # only entropy could flag it, and not this short
        return False
    if not value or _SPACE.search(value) or is_placeholder(value, key):
        return False
    if key_class == "strong":
        if value.isdigit() and len(value) < 6 and not norm_key(key).endswith(("pin", "pwd")):
            return "pass" in norm_key(key) and len(value) >= 4
        if "://" in value or value.startswith(("/", "~", "./", "arn:")) or _CODE_REF.match(value):
            return False
        if _WORDS_NAME.match(value) or _ROUTE.match(value) or _path_like(value):
            return False
        if _DOTTED_NAME.match(value):  # `settings.db.password`: an attribute, not its value
            return False
        return sole_token or char_classes(value) >= 2
    if key_class in {"weak", "mention"}:
        return _secret_shaped(value)
    if norm_key(key).endswith(_IDENTIFIER_KEY_SUFFIXES):
        return False
    return _high_entropy(value)


def _trim_closers(value: str) -> str:
    """Drop closing brackets a bare value does not open: `f(password=abc)` gives `abc`."""
    while (
        value
        and value[-1] in ")]}>"
        and value.count(value[-1]) > value.count("([{<"[")]}>".index(value[-1])])
    ):
        value = value[:-1]
    return value


_LIST_ITEM: Final = re.compile(r"""^-[ \t]+(?P<q>["']?)(?P<val>[^\s"']+)(?P=q)$""")


def _assignments(text: str) -> Iterator[Finding]:
    parent_indent = -1  # indentation of a secret-named key whose value sits on the next lines
    parent_class = ""
    parent_key = ""
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        indent = len(body) - len(body.lstrip())
        if parent_indent >= 0 and body.strip() and indent <= parent_indent:
            parent_indent = -1
        if parent_indent >= 0 and body.strip():
            nested = _ASSIGNMENT.match(body, indent)
            if nested is not None and parent_class == "mention":
                # Under `secretTemplates:` a nested mapping names things; only bare
                # continuation lines (`secrets =` then the values) belong to the key.
                value, start, sole = "", indent, True
            elif nested is not None:
                value = nested.group("qval") or nested.group("val") or ""
                start = nested.start("qval") if nested.group("q") else nested.start("val")
                sole = nested.end() >= len(body.rstrip())
            else:
                value, start, sole = body.strip(), indent, True
                # A YAML list under the key (`passwords:` then `- "s3cr3t"`): each item.
                if (item := _LIST_ITEM.match(value)) is not None:
                    value, start = item.group("val"), indent + item.start("val")
            if _value_is_secret(value, parent_class, parent_key, sole_token=sole):
                yield Finding(
                    CREDENTIAL,
                    "secret_assignment",
                    offset + start,
                    offset + start + len(value),
                    0.9,
                )
        if "=" not in body and ":" not in body and "->" not in body:
            offset += len(line)  # no operator, no assignment: the search would scan for none
            continue
        position = 0
        enclosing_end = -1  # end of the rejected value the search resumed inside
        # `a, b := "x", "y"`: the line regex would give the last name the first value; the
        # names of such a list are paired in `assignments` instead.
        name_lists = [m.span("keys") for m in MULTI_ASSIGN.finditer(body)] if '",' in body else []
        while (match := _ASSIGNMENT.search(body, position)) is not None:
            if any(start <= match.start() < end for start, end in name_lists):
                position = match.end()
                continue
            if match.start() < enclosing_end < match.end():
                # A nested assignment ends inside its value: `a:"Password:",b:"x"` must not
                # read `Password:` as a key and the closing quote as the start of a value.
                position = match.start() + 1
                continue
            # Resume inside a rejected value: `url="jdbc:...&password=x"` nests assignments.
            value_start = match.start("qval") if match.group("q") else match.start("val")
            position = max(value_start, match.start() + 1)
            if match.start() >= enclosing_end:
                enclosing_end = match.end("qval") if match.group("q") else match.end("val")
            key = match.group("sub") or match.group("key")
            key_class = _key_class(key)
            quoted = match.group("q") is not None
            # An escaped closing quote (`\"goodspec\"`) leaves its backslash on the value.
            value = (
                match.group("qval").rstrip("\\") if quoted else _trim_closers(match.group("val"))
            )
            if not quoted and cut_stand_in(value, body[match.end() :]):
                continue
            if not value:
                if key_class and body[match.end() :].strip() == "":
                    parent_indent, parent_class, parent_key = indent, key_class, key
                continue
            rest = body[match.end() :].strip()
            sole = quoted or not rest or rest[0] in ";,&)]}#"
            if _value_is_secret(value, key_class, key, sole_token=sole):
                yield Finding(
                    CREDENTIAL,
                    "secret_assignment",
                    offset + value_start,
                    offset + value_start + len(value),
                    0.9 if key_class else 0.7,
                )
                position = match.end()
        offset += len(line)


def _extra_pairs(text: str) -> Iterator[Finding]:
    """Values the shapes of `assignments` find (XML, calls, flags, headers, Secrets, prose)."""
    for pair in iter_pairs(text):
        value = pair.value.strip()
        key_class = _key_class(pair.key)
        if key_class and _value_is_secret(value, key_class, pair.key, sole_token=True):
            yield Finding(CREDENTIAL, "secret_assignment", pair.start, pair.start + len(value), 0.9)


def _glued(text: str, start: int, end: int) -> bool:
    """True when the span continues a word: a letter or digit of the same kind (letter next to
    letter, digit next to digit) right before its first or right after its last character.

    `EUROPEASIAAUSTRALIAAMERICA` is glued; Telegram's `bot110201543:AAH...` in its API URL is
    not, the token's digits start after the letters of `bot`.
    """
    before = start > 0 and text[start - 1].isalnum()
    if before and text[start - 1].isalpha() == text[start].isalpha():
        return True
    after = end < len(text) and text[end].isalnum()
    return after and text[end].isalpha() == text[end - 1].isalpha()


def _plugin_spans(plugin: RegexBasedDetector, text: str) -> Iterator[tuple[int, int]]:
    """Spans of a detect-secrets plugin's matches, read from its own regexes.

    `analyze_string` hands back a pattern's first group when it has one, and for GitLab's
    `(glpat|gldt|...)-[...]` that group is the prefix alone: the finding covered `glpat`, and
    the token's filler body (`glpat-XXXX...`) was never checked. The whole match is what the
    issuer check reads; the span is a group only where the group is the secret itself (AWS's
    `aws ... key ... "<40 chars>"`), not a short prefix.
    """
    for regex in plugin.denylist:
        for m in regex.finditer(text):
            start, end = m.span()
            if regex.groups and m.group(1) and len(m.group(1)) >= 8:
                start, end = m.span(1)
            elif _glued(text, start, end):
                # `EUROPEASIAAUSTRALIAAMERICA` holds `ASIA` + 16 capitals: a key is a token of
                # its own, not the middle of a longer run of letters and digits.
                continue
            if plausible(m.group()) and plausible(text[start:end]):
                yield start, end


def find_credentials(text: str) -> list[Finding]:
    """Return credential spans in `text`."""
    findings: list[Finding] = []
    present = {anchor for anchor in _ALL_ANCHORS if anchor in text}
    for name, pattern in _TOKEN_PATTERNS:
        anchors = _TOKEN_ANCHOR_SETS.get(name)
        if anchors is not None and present.isdisjoint(anchors):
            continue
        findings.extend(
            Finding(CREDENTIAL, name, m.start(), m.end(), 1.0)
            for m in pattern.finditer(text)
            if name in _UNCHECKED_PATTERNS or plausible(m.group())
        )
    findings.extend(
        Finding(CREDENTIAL, rule, start, end, 1.0) for rule, start, end in find_issuer_tokens(text)
    )
    if "PRIVATE KEY" in text or "PuTTY" in text:
        for pattern in (_PEM_PRIVATE, _PUTTY_PRIVATE):
            findings.extend(
                Finding(CREDENTIAL, "private_key", m.start(), m.end(), 1.0)
                for m in pattern.finditer(text)
            )
    if "://" in text:
        for m in _URL_PASSWORD.finditer(text):
            # Three characters or fewer (`user:abc@`) is a sample, not a password anyone set.
            if len(m.group(1)) > 3 and not is_placeholder(m.group(1)):
                findings.append(Finding(CREDENTIAL, "url_password", m.start(1), m.end(1), 1.0))
    if _DS_PREFILTER.search(text):
        for plugin in _DS_PLUGINS:
            plugin_anchors = _PLUGIN_ANCHOR_SETS.get(type(plugin).__name__)
            if plugin_anchors is not None and present.isdisjoint(plugin_anchors):
                continue
            findings.extend(
                Finding(CREDENTIAL, "detect_secrets", start, end, 0.9)
                for start, end in _plugin_spans(plugin, text)
            )
    if "=" in text or ":" in text:
        findings.extend(_assignments(text))
    findings.extend(_extra_pairs(text))
    findings.extend(find_credentials_in_prose(text))
    return findings
