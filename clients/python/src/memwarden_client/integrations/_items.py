"""How a key-value item (LangGraph's store) lives in a memory-contract note: pure rules.

A note's content is plain text, so an item is written as one marker line and one JSON
line. The marker line carries a token derived from the item's namespace and key: the
note is found again by a full-text search for that token, so the store needs no index of
its own and never reads a note that is not served (deleted or expired).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

MARKER = "memwarden-store-item"
MAX_CONTENT = 16_000  # the memory contract's limit on a note's text
MAX_SEARCH = 100  # the most hits /memory/search answers
PROJECT_SEGMENTS = 15  # a scope path holds 16 segments, the first is `project`
_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:@\-]{0,127}$")
_ID_SPACE = uuid.UUID("6b1f4f7e-4c1a-5d7e-9a57-6d656d776172")
_WORD = re.compile(r"\w+")


class NamespaceError(ValueError):
    """A namespace that cannot be a scope path (the path's segment rules)."""


@dataclass(frozen=True)
class StoredItem:
    """An item read back from a note, with the note's id and revision."""

    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any]
    ttl_minutes: float | None
    record_id: str
    revision: int
    created_at: datetime
    updated_at: datetime
    score: float | None = None


def check_namespace(namespace: Sequence[str], *, allow_empty: bool = False) -> tuple[str, ...]:
    """The namespace as a tuple, or NamespaceError: each label must be a scope segment."""
    labels = tuple(namespace)
    if not labels and not allow_empty:
        raise NamespaceError("a namespace needs at least one label")
    if len(labels) > PROJECT_SEGMENTS:
        raise NamespaceError(f"a namespace has at most {PROJECT_SEGMENTS} labels")
    for label in labels:
        if not isinstance(label, str) or not _SEGMENT.match(label):
            raise NamespaceError(
                f"namespace label {label!r} is not a scope segment: 1 to 128 letters, digits"
                " and _ : @ -, starting with a letter or digit"
            )
    return labels


def scope_for(namespace: Sequence[str], visibility: str) -> dict[str, Any]:
    """The contract's scope object: the namespace joined is the project id, so
    ("users", "alice") is the scope path `project/users/alice`."""
    labels = check_namespace(namespace, allow_empty=True)
    return {"project_id": "/".join(labels) or None, "visibility": visibility}


def scope_path(namespace: Sequence[str]) -> str:
    labels = check_namespace(namespace, allow_empty=True)
    return "/".join(("project", *labels)) if labels else ""


def token(namespace: Sequence[str], key: str) -> str:
    """The lookup word of one item: letters and digits only, so full text keeps it whole."""
    digest = hashlib.sha256(json.dumps([list(namespace), key]).encode()).hexdigest()
    return "k" + digest[:32]


def first_record_id(namespace: Sequence[str], key: str) -> str:
    """The id of an item's first note: two writers racing to create it collide on it."""
    return str(uuid.uuid5(_ID_SPACE, token(namespace, key)))


def encode(
    namespace: Sequence[str], key: str, value: Mapping[str, Any], ttl_minutes: float | None
) -> str:
    body: dict[str, Any] = {"namespace": list(namespace), "key": key, "value": dict(value)}
    if ttl_minutes is not None:
        body["ttl"] = ttl_minutes
    text = f"{MARKER} {token(namespace, key)}\n{json.dumps(body, ensure_ascii=False)}"
    if len(text) > MAX_CONTENT:
        raise ValueError(
            f"the item is {len(text)} characters as a note; a memory-contract note holds"
            f" at most {MAX_CONTENT}"
        )
    return text


def decode(record: Mapping[str, Any], score: float | None = None) -> StoredItem | None:
    """The item a note holds, or None for a note the store did not write."""
    content = record.get("content")
    text = content.get("text") if isinstance(content, Mapping) else None
    if not isinstance(text, str) or not text.startswith(MARKER + " "):
        return None
    head, _, rest = text.partition("\n")
    try:
        body = json.loads(rest)
    except json.JSONDecodeError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("value"), dict):
        return None
    namespace = tuple(str(label) for label in body.get("namespace") or ())
    key = str(body.get("key"))
    if head != f"{MARKER} {token(namespace, key)}":
        return None
    ttl = body.get("ttl")
    return StoredItem(
        namespace=namespace,
        key=key,
        value=body["value"],
        ttl_minutes=float(ttl) if isinstance(ttl, int | float) else None,
        record_id=str(record["id"]),
        revision=int(record["revision"]),
        created_at=_when(record.get("created_at")),
        updated_at=_when(record.get("modified_at") or record.get("created_at")),
        score=score,
    )


def _when(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def expires_at(ttl_minutes: float | None, now: datetime | None = None) -> str | None:
    if ttl_minutes is None:
        return None
    return ((now or datetime.now(UTC)) + timedelta(minutes=ttl_minutes)).isoformat()


def any_word_query(text: str) -> str | None:
    """A natural-language query as the contract's web-search syntax with the words OR-ed
    (a question shares only some words with what answers it), operators taken as words."""
    words = _WORD.findall(text)[:64]
    return " or ".join(words) if words else None


def matches(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter: exact values, nested objects, and $eq $ne $gt $gte $lt $lte."""
    return all(_compare(value.get(k), v) for k, v in (conditions or {}).items())


def _compare(item: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(item, op, arg) for op, arg in wanted.items())
        return isinstance(item, Mapping) and all(
            _compare(item.get(k), v) for k, v in wanted.items()
        )
    if isinstance(wanted, list | tuple):
        return (
            isinstance(item, list | tuple)
            and len(item) == len(wanted)
            and all(_compare(i, w) for i, w in zip(item, wanted, strict=True))
        )
    return bool(item == wanted)


def _operator(item: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(item == arg)
    if op == "$ne":
        return bool(item != arg)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"unsupported filter operator {op!r}")
    try:
        left, right = float(item), float(arg)
    except (TypeError, ValueError):
        return False
    return {
        "$gt": left > right,
        "$gte": left >= right,
        "$lt": left < right,
        "$lte": left <= right,
    }[op]


def namespace_matches(
    namespace: tuple[str, ...], conditions: Sequence[tuple[str, Sequence[str]]]
) -> bool:
    """LangGraph's prefix and suffix conditions, `*` matching any one label."""
    for match_type, path in conditions:
        if len(namespace) < len(path):
            return False
        pairs = (
            zip(namespace, path, strict=False)
            if match_type == "prefix"
            else zip(reversed(namespace), reversed(path), strict=False)
        )
        if any(p != "*" and n != p for n, p in pairs):
            return False
    return True


def fixed_prefix(conditions: Sequence[tuple[str, Sequence[str]]]) -> tuple[str, ...]:
    """The labels every match must start with (up to a prefix condition's first `*`),
    so a listing searches only under them."""
    for match_type, path in conditions:
        if match_type == "prefix":
            labels: list[str] = []
            for label in path:
                if label == "*":
                    break
                labels.append(label)
            return tuple(labels)
    return ()
