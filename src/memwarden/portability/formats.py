"""What an import file holds, read into items (pure: no I/O).

Three formats. `memwarden`: this service's own export (a header line first,
portability/lines.py). `mem0`: mem0's `get_all` answer, as one JSON document
(`{"results": [...]}` or a bare list) or one memory object per line, each with `id`,
`memory`, and optionally `user_id`, `agent_id`, `run_id`, `metadata`, `created_at`,
`updated_at`. `texts`: JSON Lines of texts, each line a string or an object with `text` and
optionally `id` and `createdAt`. `auto` tells them apart by the first line.

Each item gets a key from its format and its own id (a text without one: the digest of
its text), so importing the same item twice is a skip. A file that cannot be read (bad
JSON, an item missing what its format requires) is refused whole, naming the line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import ValidationError

from memwarden.errors import InvalidInput
from memwarden.limits import MAX_TURN_CHARS
from memwarden.portability import lines

Format = Literal["memwarden", "mem0", "texts"]
FORMATS: Final = ("memwarden", "mem0", "texts")
MAX_ITEMS: Final = 200_000
"""Items one import may hold (a larger Context: several imports; each skips what is in)."""
SKIPPED_KINDS: Final = frozenset({"principal", "judgement"})
"""Export lines an import reads past: principals and keys, review-log entries are records
of the Context that made them, not memories (docs/portability.md)."""
MODELS: Final[dict[str, type[lines.RecordLine | lines.SessionLine | lines.TurnLine]]] = {
    "record": lines.RecordLine,
    "session": lines.SessionLine,
    "turn": lines.TurnLine,
}

Item = tuple[str, dict[str, Any]]


def _bad(message: str, line: int | None = None) -> InvalidInput:
    where = f"line {line}: " if line is not None else ""
    return InvalidInput(f"{where}{message}", field="body")


def _json_lines(text: str) -> Iterator[tuple[int, Any]]:
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            yield n, json.loads(raw)
        except json.JSONDecodeError:
            raise _bad("not a JSON value", n) from None


def detect(text: str) -> Format:
    """The format of a file from its first value."""
    stripped = text.lstrip()
    if stripped.startswith("[") or stripped.startswith('{"results"'):
        return "mem0"
    for _n, value in _json_lines(stripped.split("\n", 1)[0]):
        if isinstance(value, dict) and value.get("kind") == "header":
            return "memwarden"
        if isinstance(value, dict) and "memory" in value:
            return "mem0"
    return "texts"


def _time(value: Any, line: int, name: str) -> str | None:
    if value is None or value == "":
        return None
    try:
        return datetime.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise _bad(f"{name} is not an ISO 8601 time", line) from None


def _text(value: Any, line: int, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(f"{name} must be a non-empty string", line)
    if len(value) > MAX_TURN_CHARS:
        raise _bad(f"{name} holds more than {MAX_TURN_CHARS} characters", line)
    if "\x00" in value:
        raise _bad(f"{name} holds a NUL character", line)
    return value


def _memwarden(text: str) -> list[Item]:
    values = _json_lines(text)
    first = next(values, None)
    if first is None or not isinstance(first[1], dict) or first[1].get("kind") != "header":
        raise _bad("a memwarden export starts with its header line", 1)
    head = first[1]
    if head.get("format") != lines.FORMAT or head.get("version") != lines.VERSION:
        raise _bad(f"only {lines.FORMAT} version {lines.VERSION} is read", first[0])
    items: list[Item] = []
    for n, value in values:
        kind = value.get("kind") if isinstance(value, dict) else None
        try:
            if kind in MODELS:
                line = MODELS[kind].model_validate(value)
                name = line.id if kind == "record" else f"{kind}:{line.id}"
                items.append((f"memwarden:{name}", line.model_dump(mode="json")))
            elif kind == "link":
                link = lines.LinkLine.model_validate(value)
                key = f"memwarden:link:{link.recordLo}:{link.recordHi}"
                items.append((key, link.model_dump(mode="json")))
            elif kind in SKIPPED_KINDS:
                items.append((f"memwarden:{kind}:{value.get('id')}", {"kind": kind}))
            elif kind != "end":
                raise _bad(f"unknown line kind {kind!r}", n)
        except ValidationError as exc:
            first_error = exc.errors()[0]
            where = ".".join(str(p) for p in first_error["loc"])
            raise _bad(f"{where}: {first_error['msg']}", n) from None
    return items


def _mem0_values(text: str) -> Iterator[tuple[int, Any]]:
    stripped = text.lstrip()
    if stripped.startswith("[") or stripped.startswith('{"results"'):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            raise _bad("not a JSON document") from None
        found = doc.get("results") if isinstance(doc, dict) else doc
        if not isinstance(found, list):
            raise _bad('a mem0 export holds a list of memories (or {"results": [...]})')
        yield from enumerate(found, start=1)
        return
    yield from _json_lines(text)


def _mem0(text: str) -> list[Item]:
    items: list[Item] = []
    for n, value in _mem0_values(text):
        if not isinstance(value, dict):
            raise _bad("a mem0 memory is an object", n)
        memory_id = value.get("id")
        if not isinstance(memory_id, str) or not memory_id or len(memory_id) > 200:
            raise _bad("id must be a string of 1 to 200 characters", n)
        user = value.get("user_id")
        if user is not None and (not isinstance(user, str) or len(user) > 200):
            raise _bad("user_id must be a string of at most 200 characters", n)
        payload = {
            "text": _text(value.get("memory"), n, "memory"),
            "at": _time(value.get("created_at"), n, "created_at"),
            "user": user or None,
        }
        items.append((f"mem0:{memory_id}", payload))
    return items


def _texts(text: str) -> list[Item]:
    items: list[Item] = []
    for n, value in _json_lines(text):
        if isinstance(value, str):
            value = {"text": value}
        if not isinstance(value, dict):
            raise _bad("a line is a string or an object with `text`", n)
        body = _text(value.get("text"), n, "text")
        own = value.get("id")
        if own is not None and (not isinstance(own, str | int) or len(str(own)) > 200):
            raise _bad("id must be a string of at most 200 characters", n)
        digest = hashlib.sha256(body.encode()).hexdigest()
        key = f"texts:{own}" if own is not None else f"texts:sha256:{digest}"
        items.append((key, {"text": body, "at": _time(value.get("createdAt"), n, "createdAt")}))
    return items


def read(body: bytes, fmt: Format | Literal["auto"]) -> tuple[Format, list[Item]]:
    """The file's format and items, in file order; 400 for a file that cannot be read."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad("an import file is UTF-8 text") from None
    if not text.strip():
        raise _bad("the import file is empty")
    chosen: Format = detect(text) if fmt == "auto" else fmt
    reader = {"memwarden": _memwarden, "mem0": _mem0, "texts": _texts}[chosen]
    items = reader(text)
    if not items:
        raise _bad("the import file holds no items")
    if len(items) > MAX_ITEMS:
        raise _bad(f"an import holds at most {MAX_ITEMS} items (this one {len(items)})")
    return chosen, items
