"""Assignment shapes the line regex of `credentials` does not see, as (key, value) pairs.

The line regex reads `key = value` and its kin; secrets also sit in XML (element bodies over
several lines, `name=`/`value=` attribute pairs), in call arguments (`setProperty("x.password",
"...")`, `NetworkCredential("user", "pw")`), after command-line flags (`--user u:p`,
`--http-password`), in `Authorization:` headers with any scheme, in `key "value";` and CSV
lines, in prose ("the password is 'x'"), after a run of leaders in a table (`Ldap password
----  x`), in the `data:` of a Kubernetes Secret, in records that name the key in one field and
hold the value in another (`{"key": "password", "value": ...}`), in Go's `a, b := "x", "y"`,
in a Dockerfile's `ENV NAME value` and in comparisons with a literal (`password == "x"`).
Each shape yields the key it belongs to and the value's span; whether the value is a secret is the
caller's test, shared with the line regex.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final, NamedTuple


class Pair(NamedTuple):
    key: str
    value: str
    start: int


_XML_ELEMENT: Final = re.compile(
    r"<\s*(?P<tag>[A-Za-z_][\w.:-]*)(?P<attrs>(?:\s+[\w.:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*>"
    r"(?P<body>[^<]{1,4096})</\s*(?P=tag)\s*>"
)
_XML_TAG: Final = re.compile(r"<\s*(?P<tag>[A-Za-z_][\w.:-]*)(?=\s)")
_XML_ATTR: Final = re.compile(r"\s*(?P<name>[\w.:-]+)\s*=\s*(?P<q>[\"'])(?P<val>.*?)(?P=q)")
# A string argument naming a key, then the value: `setProperty("x.password", "...")`, and
# Gradle's `buildConfigField 'String', 'API_KEY', '"..."'` (a value quoted twice, the inner
# quotes escaped or of the other kind).
_CALL_PAIR: Final = re.compile(
    r"[(,]\s*(?P<kq>[\"'])(?P<key>[\w.\- ]{2,60})(?P=kq)\s*,\s*"
    r"(?P<vq>[\"'])(?:\\?(?P<iq>[\"']))?(?P<val>[^\"'\\\n]{1,200})(?:\\?(?P=iq))?(?P=vq)"
)
_CREDENTIAL_CALL: Final = re.compile(
    r"\b(?:NetworkCredential|DirectoryEntry|PasswordCredential|UsernamePasswordCredential)"
    r"\s*\((?P<args>[^()]{0,400})\)"
)
_STRING_ARG: Final = re.compile(r"\"(?P<val>[^\"\n]*)\"")
_FLAG: Final = re.compile(
    r"(?:^|\s)--?(?P<key>[\w-]*(?:password|passwd|secret|token|api-?key))(?:=|[ \t]+)"
    r"(?P<q>[\"']?)(?P<val>[^\s\"']+)(?P=q)",
    re.IGNORECASE,
)
_USER_FLAG: Final = re.compile(
    r"(?:^|\s)(?:-u|--user)(?:=|[ \t]+)(?P<arg>\"[^\"\n]*\"(?::\"[^\"\n]*\")?|'[^'\n]*'|\S+)"
)
# Any scheme word before the value: Okta's `SSWS`, `Splunk`, `GenieKey`, `Bot`, not only the
# registered Basic/Bearer/Digest.
_AUTH_HEADER: Final = re.compile(
    r"\b(?P<key>Authorization|Proxy-Authorization)\s*:\s*"
    r"(?:(?:Basic|Bearer|Token|Api-Token|Digest|Key|[A-Za-z][\w-]{1,20}(?=\s+\S{6}))\s+)?"
    r"(?P<val>[\w=~@.+/-]{6,})",
    re.IGNORECASE,
)
_SCHEMES: Final = frozenset({"basic", "bearer", "token", "api-token", "digest", "key"})
# Keyword first, key widened backwards in code: a leading `[\w]*` would retry at every offset.
_QUOTED_SEMI: Final = re.compile(
    r"(?:apikey|api_key|private_key|secret|password|token)\w*[ \t]*"
    r"(?P<q>[\"'])(?P<val>[^\"'\s]{4,})(?P=q)[ \t]*;",
    re.IGNORECASE,
)
_KEY_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$@.-")
_CSV: Final = re.compile(r"(?m)^(?P<key>[\w.-]+),(?P<val>[^,\s]{8,}),")
_PROSE: Final = re.compile(
    r"\bpassword\s+(?:for\s+(?:the\s+)?(?:user(?:name)?)\s+[\"'][^\"'\n]{1,40}[\"']\s+)?is\s+"
    r"(?P<q>[\"'])(?P<val>[^\"'\n]{3,60})(?P=q)",
    re.IGNORECASE,
)
# A label, a run of leaders, the value: `Ldap password ----   H7IKC85R#@4$`, `Password .... x`.
_LEADER: Final = re.compile(
    r"(?i:\b(?P<key>[\w-]*(?:password|passwd|passphrase|secret|token|api[_ -]?key)))"
    r"[ \t]+(?:-{2,}|\.{3,}|={2,}|_{3,})[ \t]+(?P<val>[^\s\"'`]+)[ \t]*$",
    re.MULTILINE,
)
_NETRC: Final = re.compile(r"\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?P<val>\S+)")
_K8S_SECRET: Final = re.compile(r"(?im)^\s*kind:[ \t]*[\"']?secret[\"']?[ \t]*$")
_K8S_DATA: Final = re.compile(r"(?m)^(?P<indent>[ \t]*)data:[ \t]*$")
_K8S_ITEM: Final = re.compile(
    r"(?m)^(?P<indent>[ \t]+)(?P<key>[\w.-]+):[ \t]*(?:[|>][-+]?[ \t]*\n[ \t]+)?"
    r"(?P<q>[\"']?)(?P<val>[A-Za-z0-9+/]{10,}={0,3})(?P=q)[ \t]*$"
)


# A record that names its key in one field and holds the value in another: `{"key":
# "password", "value": "..."}`, `<key>password</key><value>...</value>`, a Kubernetes or
# CloudFormation `- name: DB_PASSWORD` / `value: ...` pair.
_NAMED_VALUE: Final = (
    re.compile(
        r"\"(?:key|name|Name|Key)\"\s*:\s*\"(?P<key>[^\"\n]{1,80})\"\s*,\s*"
        r"\"(?:value|Value)\"\s*:\s*\"(?P<val>[^\"\n]*)\""
    ),
    re.compile(
        r"<(?P<kt>key|name)>\s*(?P<key>[^<\n]{1,80}?)\s*</(?P=kt)>\s*"
        r"<value>\s*(?P<val>[^<\n]*?)\s*</value>",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?m)^[ \t]*-?[ \t]*(?:name|Name):[ \t]*[\"']?(?P<key>[\w.-]{1,80})[\"']?[ \t]*\n"
        r"[ \t]+(?:value|Value):[ \t]*(?P<q>[\"']?)(?P<val>[^\s\"']+)(?P=q)[ \t]*$"
    ),
)
# Go and other languages that assign several names at once: `a, b := "x", "y"`,
# `const a, b string = "x", "y"`; the n-th value belongs to the n-th name.
MULTI_ASSIGN: Final = re.compile(
    r"(?P<keys>\b[A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)+)(?:[ \t]+[A-Za-z_][\w.]*)?"
    r"[ \t]*:?=[ \t]*(?P<vals>\"[^\"\n]*\"(?:[ \t]*,[ \t]*\"[^\"\n]*\")+)"
)
_QUOTED: Final = re.compile(r"\"(?P<val>[^\"\n]*)\"")
# A Dockerfile's `ENV NAME value` (the older form, a space and no `=`).
_DOCKER_ENV: Final = re.compile(
    r"(?m)^[ \t]*ENV[ \t]+(?P<key>[A-Za-z_]\w*)[ \t]+(?P<q>[\"']?)(?P<val>[^\s\"'=]+)(?P=q)[ \t]*$"
)
# A comparison with a literal: `password == "hunter2"`, `if (token === 'abc')`.
_COMPARISON: Final = re.compile(
    r"(?P<key>\b[A-Za-z_][\w.]*)[ \t]*(?:===?|!==?)[ \t]*[fbruFBRU]?"
    r"(?P<q>[\"'])(?P<val>[^\"'\n]+)(?P=q)"
)


def _named_values(text: str) -> Iterator[Pair]:
    for pattern in _NAMED_VALUE:
        for m in pattern.finditer(text):
            if m.group("val"):
                yield Pair(m.group("key"), m.group("val"), m.start("val"))


def _multi_assign(text: str) -> Iterator[Pair]:
    for m in MULTI_ASSIGN.finditer(text):
        keys = [k.strip() for k in m.group("keys").split(",")]
        values = list(_QUOTED.finditer(m.group("vals")))
        if len(keys) == len(values):
            for key, value in zip(keys, values, strict=True):
                yield Pair(key, value.group("val"), m.start("vals") + value.start("val"))


def _xml(text: str) -> Iterator[Pair]:
    for m in _XML_ELEMENT.finditer(text):
        body = m.group("body")
        stripped = body.strip()
        if stripped:
            named = {a.group("name").lower(): a.group("val") for a in _attrs(m.group("attrs"))}
            key = named.get("name") or named.get("key") or m.group("tag")
            yield Pair(key, stripped, m.start("body") + body.index(stripped))
    for m in _XML_TAG.finditer(text):
        attrs: dict[str, tuple[str, int]] = {}
        position = m.end()
        while (a := _XML_ATTR.match(text, position)) is not None:
            attrs[a.group("name").lower()] = (a.group("val"), a.start("val"))
            position = a.end()
        if "value" in attrs:
            value, start = attrs["value"]
            name = attrs.get("name") or attrs.get("key")
            yield Pair(name[0] if name else m.group("tag"), value, start)


def _attrs(fragment: str) -> Iterator[re.Match[str]]:
    position = 0
    while (a := _XML_ATTR.match(fragment, position)) is not None:
        yield a
        position = a.end()


def _user_flag(text: str) -> Iterator[Pair]:
    for m in _USER_FLAG.finditer(text):
        arg, start = m.group("arg"), m.start("arg")
        parts = [p.strip("\"'") for p in re.split(r"(?<=[\"'])?:(?=[\"']?)", arg, maxsplit=1)]
        if len(parts) != 2:
            continue
        user, password = parts
        secret = password or user
        if secret:
            yield Pair("password", secret, start + arg.find(secret))


def _kubernetes(text: str) -> Iterator[Pair]:
    if not _K8S_SECRET.search(text):
        return
    for data in _K8S_DATA.finditer(text):
        depth = len(data.group("indent").expandtabs(4))
        position = data.end() + 1
        while position < len(text):
            end = text.find("\n", position)
            end = len(text) if end < 0 else end
            line = text[position:end]
            if line.strip() and len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip()) <= depth:
                break
            m = _K8S_ITEM.match(text, position)
            if m is not None and any(c.isdigit() or c in "+/=" for c in m.group("val")):
                yield Pair("secretdata", m.group("val"), m.start("val"))
                end = max(end, m.end())
            position = end + 1


# Words one of the flag, `key "value";`, leader and prose rules needs (`api-key` holds `key`).
_SECRET_WORDS: Final = ("pass", "secret", "token", "key")


def iter_pairs(text: str) -> Iterator[Pair]:
    """Every (key, value) pair the extra shapes find, in no particular order."""
    if "<" in text:
        yield from _xml(text)
    if "alue" in text:
        yield from _named_values(text)
    if '",' in text and "=" in text:
        yield from _multi_assign(text)
    if "ENV" in text:
        for env in _DOCKER_ENV.finditer(text):
            yield Pair(env.group("key"), env.group("val"), env.start("val"))
    if "==" in text or "!=" in text:
        for test in _COMPARISON.finditer(text):
            yield Pair(test.group("key"), test.group("val"), test.start("val"))
    if "(" in text or "," in text:
        position = 0
        while (m := _CALL_PAIR.search(text, position)) is not None:
            yield Pair(m.group("key"), m.group("val"), m.start("val"))
            position = m.start("vq")  # the value may be the key of the next pair
    if "(" in text:
        for m in _CREDENTIAL_CALL.finditer(text):
            args = list(_STRING_ARG.finditer(m.group("args")))
            if len(args) >= 2:
                last = args[-1]
                yield Pair("password", last.group("val"), m.start("args") + last.start("val"))
    # The rules below need a word the text may well lack; the lowered text is asked once, and
    # a rule whose word is absent does not scan (`(?:^|\s)--?` tried at every space).
    lowered = text.lower()
    secret_word = any(word in lowered for word in _SECRET_WORDS)
    if "-" in text:
        if secret_word:
            for m in _FLAG.finditer(text):
                yield Pair(m.group("key"), m.group("val"), m.start("val"))
        if "-u" in text:
            yield from _user_flag(text)
    if ":" in text:
        if "authorization" in lowered:
            for m in _AUTH_HEADER.finditer(text):
                if m.group("val").lower() not in _SCHEMES:
                    yield Pair("authorization", m.group("val"), m.start("val"))
        if "kind" in text and "data:" in text:
            yield from _kubernetes(text)
    if ";" in text and secret_word:
        for m in _QUOTED_SEMI.finditer(text):
            start = m.start()
            while start > 0 and text[start - 1] in _KEY_CHARS:
                start -= 1
            yield Pair(text[start : m.start("q")].strip(), m.group("val"), m.start("val"))
    if "," in text:
        for m in _CSV.finditer(text):
            yield Pair(m.group("key"), m.group("val"), m.start("val"))
    if secret_word and ("--" in text or "..." in text or "==" in text or "___" in text):
        for m in _LEADER.finditer(text):
            yield Pair(m.group("key"), m.group("val"), m.start("val"))
    if "machine" in text:
        for m in _NETRC.finditer(text):
            yield Pair("password", m.group("val"), m.start("val"))
    if " is " in text and "password" in lowered:
        for m in _PROSE.finditer(text):
            yield Pair("password", m.group("val"), m.start("val"))
