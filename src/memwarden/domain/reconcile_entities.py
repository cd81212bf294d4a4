"""Entity resolution for one write (pure): one name is one entity.

A name the write already used resolves to the same entity; otherwise a known entity of
that normalised name is reused (reported as not new); otherwise a new entity is drafted.

First person resolves to the write's speaker (`domain/speaker.py`): "I", "me", `user` and
the names the speaker gives themselves (known ones, and those this write states as their
`name`, `preferred_name`, ...) all stand for the speaker's own entity, never for a shared
`user`. A write without a speaker (a pass) keeps first person as a plain name.

A new entity is held when the write is, or when rows name it and every one of them is
held (whether or not the extraction listed the entity itself): it stays hidden with the
facts that are its only reason to exist, under the hold of the first of them, and the
first of their holds to be approved releases it. One live row naming it keeps it live.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memwarden.domain.reconcile_draft import Draft, entity_entry
from memwarden.domain.reconcile_rules import (
    Incoming,
    Known,
    NewRecord,
    normalise_key,
    normalise_name,
)
from memwarden.domain.speaker import FIRST_PERSON, NAME_KEYS, Speaker

Resolved = tuple[uuid.UUID, str]  # (entity id, display name)

# The fields by which a row names an entity (an action's object only when it is one).
NAMING_FIELDS = {
    "attribute": ("entity",),
    "relation": ("subject", "object"),
    "action": ("actor", "object"),
    "correction": ("entity",),
}


def given_names(items: Sequence[Incoming], known: frozenset[str] = frozenset()) -> list[str]:
    """Names the write gives its speaker, in order: values of the speaker's name attributes
    (and corrections of them), the speaker being first person or a name it already has."""
    out: list[str] = []
    for item in items:
        d = item.data
        if item.kind == "attribute":
            entity, key, value = d.get("entity"), d.get("key"), d.get("value")
        elif item.kind == "correction":
            entity, key, value = d.get("entity"), d.get("key"), d.get("newValue")
        else:
            continue
        norm = normalise_name(str(entity or ""))
        if (norm == FIRST_PERSON or norm in known) and normalise_key(str(key or "")) in NAME_KEYS:
            name = str(value or "").strip()
            if normalise_name(name) and name not in out:
                out.append(name)
    return out


@dataclass(frozen=True)
class Naming:
    """How one write normalises the names its rows use: as `normalise_name` does, with
    first person and the speaker's own names mapped to the speaker's entity."""

    speaker: Speaker | None = None
    speaker_names: frozenset[str] = frozenset()  # normalised

    @classmethod
    def of(cls, speaker: Speaker | None, items: Sequence[Incoming], known: Known) -> Naming:
        if speaker is None:
            return cls()
        given = {normalise_name(n) for n in given_names(items, known.speaker_names)}
        names = frozenset(known.speaker_names | given) - {"", FIRST_PERSON}
        return cls(speaker, names)

    def norm(self, name: str) -> str:
        norm = normalise_name(name)
        if self.speaker is not None and (norm == FIRST_PERSON or norm in self.speaker_names):
            return self.speaker.norm
        return norm

    def is_speaker(self, norm: str) -> bool:
        return self.speaker is not None and norm == self.speaker.norm


def hidden_entities(items: Sequence[Incoming], naming: Naming | None = None) -> dict[str, str]:
    """Normalised names that only held rows name -> the first such row's id."""
    norm_of = (naming or Naming()).norm
    naming_rows: dict[str, list[Incoming]] = {}
    for item in items:
        for field in NAMING_FIELDS.get(item.kind, ()):
            norm = norm_of(str(item.data.get(field) or ""))
            if norm:
                naming_rows.setdefault(norm, []).append(item)
    return {n: rows[0].row_id for n, rows in naming_rows.items() if all(r.held for r in rows)}


class Entities:
    def __init__(
        self,
        known: Known,
        draft: Draft,
        hidden: Mapping[str, str] | None = None,
        naming: Naming | None = None,
        speaker_display: str | None = None,
    ) -> None:
        """`hidden`: `hidden_entities` of the write's items; `speaker_display`: the name a
        new speaker entity is drafted under (the first name the write gives the speaker)."""
        self.known, self.draft = known, draft
        self.hidden = dict(hidden or {})
        self.naming = naming or Naming()
        self.speaker_display = speaker_display
        self.names: dict[str, Resolved] = {}

    def resolve(
        self,
        name: str,
        etype: str = "other",
        category: str = "context",
        row_id: str | None = None,
    ) -> Resolved | None:
        """The entity a name stands for, drafting it when nothing known matches."""
        norm = self.naming.norm(name)
        if not norm:
            return None
        content: dict[str, str] = {}
        if self.naming.is_speaker(norm):
            assert self.naming.speaker is not None
            name = self.speaker_display or self.naming.speaker.display
            etype, category = "person", "identity"
            content["speaker"] = self.naming.speaker.key
        if norm not in self.names:
            found = self.known.entities.get(norm)
            if found is not None:
                self.names[norm] = (found.id, found.name)
                self.draft.report(
                    "entities",
                    found.id,
                    entity_entry(found.name, found.entity_type, found.category, False),
                )
            else:
                rec = self.draft.add(
                    NewRecord(
                        self.draft.new_id(),
                        "entity",
                        category,
                        {"name": name, "entityType": etype, **content},
                        f"{name} ({etype})",
                        norm,
                        name,
                        self.draft.write_held or norm in self.hidden,
                        row_id,
                        held_with=self.hidden.get(norm),
                    )
                )
                self.names[norm] = (rec.id, name)
                self.draft.report("entities", rec.id, entity_entry(name, etype, category, True))
        return self.names[norm]

    def lookup(self, name: str) -> Resolved | None:
        """An entity the name already stands for (in this write or known), never a new one."""
        norm = self.naming.norm(name)
        if found := self.names.get(norm):
            return found
        k = self.known.entities.get(norm)
        return (k.id, k.name) if k else None
