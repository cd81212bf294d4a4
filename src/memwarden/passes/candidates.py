"""Consolidation's candidate pairs (pure): entities that may be one thing under two names.

Within one scope (path, visibility, and owner for private ones):

- the same name once case, punctuation and a leading article are set aside
  ("Acme Inc." / "acme inc") — sure;
- one name's words begin the other's ("Alice" / "Alice Chen") with compatible types — sure
  when the shorter name begins exactly one longer one, unsure when it begins several;
- the rule extractor's self-reference (`user`, a person) and the scope's only other
  person — unsure: it may be the speaker, or someone the speaker talked about.

Unsure pairs go to a reviewer (the hygiene queue); they are never merged offline.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SELF_NAMES = frozenset({"user", "the user", "me", "myself", "i", "speaker"})
_ARTICLE = re.compile(r"^(the|a|an)\s+")
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
GENERIC_TYPES = frozenset({"", "other", "unknown", "thing"})
SURE_CONFIDENCE = 0.9
UNSURE_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Pair:
    a: Mapping[str, Any]  # the entity row that would be merged away (offline)
    b: Mapping[str, Any]  # the one that would survive (offline)
    reason: str  # "same_name", "name_prefix", "self_reference"
    sure: bool

    @property
    def confidence(self) -> float:
        return SURE_CONFIDENCE if self.sure else UNSURE_CONFIDENCE


def name_key(name: str) -> str:
    text = " ".join(_PUNCT.sub(" ", name.casefold()).split())
    return _ARTICLE.sub("", text)


def _compatible(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    ta, tb = str(a["entity_type"] or "").casefold(), str(b["entity_type"] or "").casefold()
    return ta == tb or ta in GENERIC_TYPES or tb in GENERIC_TYPES


def _group(row: Mapping[str, Any]) -> tuple[str, str, str]:
    owner = row["owner_subject"] if row["visibility"] == "private" else ""
    return (row["scope_path"], row["visibility"], owner)


def _fuller(x: Mapping[str, Any], y: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    """(merged away, survivor): the one with more facts survives, then the older."""
    kx = (x["facts"], -x["created_at"].timestamp())
    ky = (y["facts"], -y["created_at"].timestamp())
    return (y, x) if kx >= ky else (x, y)


def pairs(entities: Sequence[Mapping[str, Any]]) -> list[Pair]:
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for row in entities:
        groups[_group(row)].append(row)
    out: list[Pair] = []
    for rows in groups.values():
        out += _in_group(rows)
    return out


def _in_group(rows: Sequence[Mapping[str, Any]]) -> list[Pair]:
    out: list[Pair] = []
    seen: set[frozenset[Any]] = set()
    keyed = [(name_key(str(r["name"] or "")), r) for r in rows]
    keyed = [(k, r) for k, r in keyed if k]

    def add(pair: Pair) -> None:
        ids = frozenset((pair.a["id"], pair.b["id"]))
        if ids not in seen:
            seen.add(ids)
            out.append(pair)

    for i, (ka, a) in enumerate(keyed):
        for kb, b in keyed[i + 1 :]:
            if ka == kb and _compatible(a, b):
                gone, kept = _fuller(a, b)
                add(Pair(gone, kept, "same_name", True))
    for ka, a in keyed:
        if ka in SELF_NAMES:
            continue
        words = ka.split()
        longer = [
            (kb, b)
            for kb, b in keyed
            if kb.split()[: len(words)] == words
            and len(kb.split()) > len(words)
            and _compatible(a, b)
        ]
        for _kb, b in longer:
            add(Pair(a, b, "name_prefix", len(longer) == 1))
    selves = [r for k, r in keyed if k in SELF_NAMES]
    people = [r for k, r in keyed if k not in SELF_NAMES and _is_person(r)]
    for me in selves:
        if _is_person(me) and len(people) == 1:
            add(Pair(me, people[0], "self_reference", False))
    return out


def _is_person(row: Mapping[str, Any]) -> bool:
    return str(row["entity_type"] or "").casefold() == "person"
