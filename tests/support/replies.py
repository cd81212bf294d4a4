"""Builders for scripted model replies, one copy each (the contracts are in DESIGN.md)."""

from __future__ import annotations

from typing import Any

from tests.support.scripted_model import Reply

EXTRACTION_LISTS = (
    "entities",
    "attributes",
    "relations",
    "actions",
    "instructions",
    "uncertainties",
    "corrections",
)
EMPTY_EXTRACTION: dict[str, list[Any]] = {name: [] for name in EXTRACTION_LISTS}
PASS_VERDICT: dict[str, Any] = {"verdict": "pass", "reasons": []}


def extraction(**lists: list[dict[str, Any]]) -> dict[str, Any]:
    """An extraction-contract reply: the given lists, every other list empty."""
    unknown = set(lists) - set(EXTRACTION_LISTS)
    assert not unknown, f"not an extraction list: {sorted(unknown)}"
    return {**EMPTY_EXTRACTION, **lists}


def person(name: str, category: str = "identity") -> dict[str, str]:
    return {"name": name, "entityType": "person", "memoryCategory": category}


def attr(entity: str, key: str, value: str, category: str = "identity") -> dict[str, str]:
    return {"entity": entity, "key": key, "value": value, "memoryCategory": category}


def verdict(v: str, *reasons: str) -> Reply:
    """A judge reply: one verdict and its reason codes."""
    return Reply.json({"verdict": v, "reasons": list(reasons)})


def rows_reply(verdicts: dict[str, tuple[str, ...] | str]) -> Reply:
    """A row-judge reply: {row id: verdict or (verdict, reason, ...)}."""
    rows = []
    for rid, v in verdicts.items():
        name, *codes = (v,) if isinstance(v, str) else v
        rows.append({"id": rid, "verdict": name, "reasons": codes})
    return Reply.json({"rows": rows})
