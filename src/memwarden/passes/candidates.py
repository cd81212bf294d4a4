"""Consolidation's candidate pairs (pure): entities that may be one thing under two names.

Within one scope (path, visibility, and owner for private ones):

- the same name once case, punctuation and a leading article are set aside
  ("Acme Inc." / "acme inc") — sure;
- one name's words begin the other's ("Alice" / "Alice Chen") with compatible types — sure
  when the shorter name begins exactly one longer one, unsure when it begins several;
- the rule extractor's self-reference (`user`, a person) or a speaker's own entity
  (`domain/speaker.py`) and the scope's only other person — unsure: it may be the speaker,
  or someone the speaker talked about.

Two speakers' own entities are never a pair, whatever their names (two people), and a
speaker's own entity is never the one merged away (first person resolves to it).

And the same attribute of one entity under two keys (`job` / `occupation`, `favorite_food` /
`favourite_food`: `KEY_SYNONYMS`): sure with the same value, unsure with different ones.

Unsure pairs go to a reviewer (the hygiene queue); they are never merged offline.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memwarden.domain.speaker import is_speaker_norm

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


def is_speakers(row: Mapping[str, Any]) -> bool:
    """A speaker's own entity (its normalised name is `speaker:<key>`)."""
    return is_speaker_norm(str(row.get("norm_name") or ""))


def _fuller(x: Mapping[str, Any], y: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    """(merged away, survivor): a speaker's own entity survives, else the one with more
    facts, then the older."""
    kx = (is_speakers(x), x["facts"], -x["created_at"].timestamp())
    ky = (is_speakers(y), y["facts"], -y["created_at"].timestamp())
    return (y, x) if kx >= ky else (x, y)


def _two_speakers(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return is_speakers(a) and is_speakers(b)


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
            if ka == kb and _compatible(a, b) and not _two_speakers(a, b):
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
            and not _two_speakers(a, b)
        ]
        for _kb, b in longer:
            gone, kept = (b, a) if is_speakers(a) else (a, b)
            add(Pair(gone, kept, "name_prefix", len(longer) == 1))
    selves = [r for k, r in keyed if k in SELF_NAMES or is_speakers(r)]
    people = [r for k, r in keyed if k not in SELF_NAMES and not is_speakers(r) and _is_person(r)]
    for me in selves:
        if _is_person(me) and len(people) == 1:
            # A speaker's own entity survives; the legacy `user` is merged into the person.
            gone, kept = (people[0], me) if is_speakers(me) else (me, people[0])
            add(Pair(gone, kept, "self_reference", False))
    return out


def _is_person(row: Mapping[str, Any]) -> bool:
    return str(row["entity_type"] or "").casefold() == "person"


# Keys that name one attribute in different words (British and American spellings folded
# first). Deliberately short: a wrong entry would merge facts that are not the same.
KEY_SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"job", "occupation", "job_title", "role", "profession", "position"}),
    frozenset({"employer", "company", "works_at", "workplace", "works_for"}),
    frozenset({"city", "home_city", "lives_in", "location", "residence", "home_town"}),
    frozenset({"birthday", "date_of_birth", "birth_date", "dob", "born_on"}),
    frozenset({"email", "email_address", "e_mail"}),
    frozenset({"phone", "phone_number", "telephone", "mobile"}),
)
_SPELLING = (("favourite", "favorite"), ("colour", "color"), ("organisation", "organization"))


def key_class(key: str) -> str:
    """The attribute a key names: spelling folded, then its synonym class if it has one."""
    folded = key.casefold()
    for british, american in _SPELLING:
        folded = folded.replace(american, british)
    for group in KEY_SYNONYMS:
        if folded in group:
            return min(group)
    return folded


def value_key(value: str) -> str:
    return " ".join(_PUNCT.sub(" ", value.casefold()).split())


def attribute_pairs(attributes: Sequence[Mapping[str, Any]]) -> list[Pair]:
    """Live attributes of one entity whose keys differ but name one attribute: the same
    value is a sure pair (the older survives), different values an unsure one."""
    by_entity: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    for row in attributes:
        by_entity[(row["entity_id"], *_group(row))].append(row)
    out: list[Pair] = []
    for rows in by_entity.values():
        for i, a in enumerate(rows):
            for b in rows[i + 1 :]:
                if a["attr_key"] == b["attr_key"]:
                    continue
                if key_class(a["attr_key"]) != key_class(b["attr_key"]):
                    continue
                older, newer = sorted((a, b), key=lambda r: (r["created_at"], str(r["id"])))
                same = value_key(str(a["value"])) == value_key(str(b["value"]))
                out.append(Pair(newer, older, "same_attribute", same))
    return out
