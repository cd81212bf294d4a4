"""Reconciliation rules (pure): how extracted facts meet what a scope already knows.

Names and values are compared after normalisation, so "Acme, Inc." and "acme" are one
entity and "CTO." and "cto" one value. Single-valued attribute keys and relation labels
supersede; everything else accumulates and deduplicates. The planner returns every write
as data; `pipeline/reconcile.py` executes it.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Cosine similarity of two entity-name embeddings (all-MiniLM-L6-v2) at or above which a
# new name resolves to an existing entity of a compatible type. Measured: "New York"/"NYC"
# 0.94, "Dr. Smith"/"Doctor Smith" 0.94, but "Alice Chen"/"Alice Wong" 0.81 and
# "Alice Chen"/"Alice" 0.78, so anything lower would merge different people.
ENTITY_SIMILARITY_THRESHOLD = 0.92

ALIASES = {
    "i": "user",
    "me": "user",
    "myself": "user",
    "my": "user",
    "mine": "user",
    "the user": "user",
    "speaker": "user",
    "the speaker": "user",
    "you": "assistant",
    "the assistant": "assistant",
}
_SUFFIXES = {"inc", "ltd", "llc", "corp", "corporation", "co", "gmbh", "plc", "ag", "sa"}
_GENERIC_TYPES = {"", "other", "unknown", "thing", "entity"}
# Keys and labels that hold many values at once: a new value is added, never replacing.
MULTI_VALUED_KEYS = frozenset(
    {
        "likes",
        "loves",
        "enjoys",
        "dislikes",
        "prefers",
        "hobby",
        "hobbies",
        "interest",
        "interests",
        "skill",
        "skills",
        "language",
        "languages",
        "pet",
        "pets",
        "child",
        "children",
        "friend",
        "friends",
        "allergy",
        "allergies",
        "goal",
        "goals",
        "favourite",
        "nickname",
        "nicknames",
        "alias",
        "aliases",
    }
)
SINGLE_VALUED_LABELS = frozenset({"lives_in", "works_at", "married_to", "born_in", "based_in"})
NONE_VALUES = frozenset({"", "none", "null", "n/a", "nothing", "no longer"})


def normalise_name(name: str) -> str:
    """Casefold, punctuation to spaces, aliases, no leading 'the' or company suffix."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = " ".join(re.sub(r"[^\w\s]|_", " ", text).split())
    text = ALIASES.get(text, text)
    words = text.split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    if len(words) > 1 and words[-1] in _SUFFIXES:
        words = words[:-1]
    return " ".join(words)


def normalise_value(value: str) -> str:
    """Identity of a value: casefolded, whitespace collapsed, edge punctuation dropped."""
    text = " ".join(unicodedata.normalize("NFKC", value).casefold().split())
    return text.strip(" .,;:!?\"'()[]")


def normalise_key(key: str) -> str:
    """Keys and labels as snake_case: 'Works At' and 'works-at' are one label."""
    return "_".join(re.findall(r"\w+", unicodedata.normalize("NFKC", key).casefold())).strip("_")


def human(key: str) -> str:
    return key.replace("_", " ")


def types_compatible(a: str, b: str) -> bool:
    a, b = a.casefold().strip(), b.casefold().strip()
    return a == b or a in _GENERIC_TYPES or b in _GENERIC_TYPES


def accept_similar(incoming_type: str, candidate_type: str, similarity: float) -> bool:
    return similarity >= ENTITY_SIMILARITY_THRESHOLD and types_compatible(
        incoming_type, candidate_type
    )


def is_multi_valued(key: str) -> bool:
    return key in MULTI_VALUED_KEYS


@dataclass(frozen=True)
class KnownEntity:
    id: uuid.UUID
    name: str
    entity_type: str
    category: str


@dataclass(frozen=True)
class KnownFact:
    """A live attribute, relation or action: `key` is the key or label, `ident` the value
    or object identity."""

    id: uuid.UUID
    kind: str
    entity_id: uuid.UUID
    key: str
    ident: str
    object_entity_id: uuid.UUID | None = None
    derived: bool = False  # written by a pass or a reflection (domain/replacement.py)


@dataclass(frozen=True)
class Known:
    entities: Mapping[str, KnownEntity]  # by normalised incoming name (the speaker's: its norm)
    facts: Sequence[KnownFact] = ()
    notes: Mapping[tuple[str, str], uuid.UUID] = field(default_factory=dict)
    # Normalised names the speaker's entity already carries (its `name`, ... attributes).
    speaker_names: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Incoming:
    """One gated diff item: kind is a diff list name in the singular (or 'correction')."""

    row_id: str
    kind: str
    data: Mapping[str, Any]
    held: bool = False


@dataclass
class NewRecord:
    id: uuid.UUID
    kind: str
    category: str
    content: dict[str, Any]
    body: str
    norm: str
    embed_text: str
    held: bool
    row_id: str | None = None
    entity_id: uuid.UUID | None = None
    object_entity_id: uuid.UUID | None = None
    attr_key: str | None = None
    # A held entity that only held rows name shares the hold of the first of them (its
    # own row, if any, was not held): the row id whose hold judgement it is stored under.
    held_with: str | None = None


@dataclass(frozen=True)
class Supersede:
    old_id: uuid.UUID
    new_id: uuid.UUID | None  # None: the fact ended without a replacement


@dataclass
class Plan:
    records: list[NewRecord] = field(default_factory=list)
    supersedes: list[Supersede] = field(default_factory=list)
    diff: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


IdFactory = Callable[[], uuid.UUID]
