"""Slot and value rules for one write (pure): attributes, relations, actions, corrections.

A slot is an entity's key (or label). An identical value is a no-op reporting the
existing id; a new value of a single-valued slot supersedes the live one; a multi-valued
key accumulates; a held row or write adds rows but never supersedes anything.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from memwarden.domain.reconcile_draft import Draft, attribute_entry, correction_entry
from memwarden.domain.reconcile_entities import Entities
from memwarden.domain.reconcile_rules import (
    NONE_VALUES,
    SINGLE_VALUED_LABELS,
    Incoming,
    KnownFact,
    NewRecord,
    Supersede,
    human,
    is_multi_valued,
    normalise_key,
    normalise_name,
    normalise_value,
)
from memwarden.domain.replacement import Holder, refusal


class Slots:
    """The live facts as the write changes them: what it adds, and what it supersedes."""

    def __init__(self, facts: Sequence[KnownFact], entities: Entities, draft: Draft) -> None:
        self.entities, self.draft = entities, draft
        self.facts: list[KnownFact] = list(facts)
        self.gone: set[uuid.UUID] = set()

    def live(self, kind: str, entity_id: uuid.UUID, key: str) -> list[KnownFact]:
        return [
            f
            for f in self.facts
            if f.kind == kind
            and f.entity_id == entity_id
            and f.key == key
            and f.id not in self.gone
        ]

    def supersede(
        self,
        old: Sequence[KnownFact],
        new_id: uuid.UUID | None,
        held: bool,
    ) -> list[str]:
        """A held row or write replaces nothing; otherwise each fact the replacement rule
        lets the new record replace (a derived write keeps the stated facts it would end)."""
        if held or self.draft.write_held:
            return []
        gone = [f for f in old if self.replaceable(f, new_id)]
        for fact in gone:
            self.gone.add(fact.id)
            self.draft.plan.supersedes.append(Supersede(fact.id, new_id))
        return [str(f.id) for f in gone]

    def replaceable(self, fact: KnownFact, new_id: uuid.UUID | None) -> bool:
        """The rule on a fact of the write's own scope (so only provenance can refuse)."""
        draft = self.draft
        retired = Holder(fact.id, True, "", "shared", "", fact.derived)
        if new_id is None:  # ended without a replacement: as a derived one would end it
            return not draft.derived or fact.derived
        replacement = Holder(new_id, True, "", "shared", "", draft.derived, draft.sources)
        return refusal(retired, replacement) is None

    def attribute(
        self,
        item: Incoming,
        d: Mapping[str, Any],
        force_old: str | None = None,
        keep: frozenset[str] = frozenset(),
    ) -> tuple[uuid.UUID | None, list[str]]:
        """`force_old`: the value a correction names as replaced; `keep`: values the same
        write asserts, which are never replaced."""
        key, value = normalise_key(d["key"]), str(d["value"])
        ident = normalise_value(value)
        ent = self.entities.resolve(d["entity"])
        if ent is None or not key or not ident:
            return None, []
        eid, ename = ent
        current = self.live("attribute", eid, key)
        category = d.get("memoryCategory", "context")
        same = next((f for f in current if f.ident == ident), None)
        replaced = [f for f in current if force_old and f.ident == force_old and f is not same]
        if same is not None:
            gone = self.supersede([f for f in replaced if f.ident not in keep], same.id, item.held)
            self.draft.report(
                "attributes", same.id, attribute_entry(eid, key, value, category, False)
            )
            return same.id, gone
        held = item.held or self.draft.write_held
        body = f"{ename} — {human(key)}: {value}"
        rec = self.draft.add(
            NewRecord(
                self.draft.new_id(),
                "attribute",
                category,
                {"entity": ename, "key": key, "value": value},
                body,
                ident,
                body,
                held,
                item.row_id,
                entity_id=eid,
                attr_key=key,
            )
        )
        self.facts.append(KnownFact(rec.id, "attribute", eid, key, ident))
        self.draft.report("attributes", rec.id, attribute_entry(eid, key, value, category, True))
        multi = is_multi_valued(key)
        targets = replaced or ([] if multi else current)
        return rec.id, self.supersede([f for f in targets if f.ident not in keep], rec.id, held)

    def link(
        self,
        kind: str,
        item: Incoming,
        subj: str,
        label: str,
        obj: str,
        category: str,
    ) -> tuple[uuid.UUID | None, list[str]]:
        """A relation (object: an entity) or an action (object: a known entity or text)."""
        key = normalise_key(label)
        s = self.entities.resolve(subj)
        if s is None or not key:
            return None, []
        held = item.held or self.draft.write_held
        if kind == "relation":
            o = self.entities.resolve(obj)
            if o is None:
                return None, []
            oid: uuid.UUID | None = o[0]
            oname, ident = o[1], normalise_name(obj)
        else:
            found = self.entities.lookup(obj)
            oid, oname, ident = (found[0] if found else None), obj, normalise_value(obj)
        current = self.live(kind, s[0], key)
        same = next(
            (
                f
                for f in current
                if f.ident == ident or (oid is not None and f.object_entity_id == oid)
            ),
            None,
        )
        role = "subject" if kind == "relation" else "actor"
        entry = {role: s[1], "label": key, "object": oname, "memoryCategory": category}
        if same is not None:
            self.draft.report(f"{kind}s", same.id, {**entry, "isNew": False})
            return same.id, []
        body = " ".join(p for p in (s[1], human(key), oname) if p)
        rec = self.draft.add(
            NewRecord(
                self.draft.new_id(),
                kind,
                category,
                {role: s[1], "label": key, "object": oname},
                body,
                ident,
                body,
                held,
                item.row_id,
                entity_id=s[0],
                object_entity_id=oid,
                attr_key=key,
            )
        )
        self.facts.append(KnownFact(rec.id, kind, s[0], key, ident, oid))
        self.draft.report(f"{kind}s", rec.id, {**entry, "isNew": True})
        if kind != "relation" or key not in SINGLE_VALUED_LABELS:
            return rec.id, []
        return rec.id, self.supersede(
            [f for f in current if f.object_entity_id != oid], rec.id, held
        )

    def correction(
        self, item: Incoming, d: Mapping[str, Any], keep: frozenset[str] = frozenset()
    ) -> None:
        """`keep`: values this write asserts for the slot, which the correction must not end."""
        key, new, old = normalise_key(d["key"]), str(d["newValue"]), d.get("oldValue")
        ent = self.entities.resolve(d["entity"])
        if ent is None or not key:
            return
        eid = ent[0]
        ended = normalise_value(new) in NONE_VALUES
        as_relation = key in SINGLE_VALUED_LABELS or bool(self.live("relation", eid, key))
        new_id: uuid.UUID | None = None
        gone: list[str] = []
        if as_relation:
            old_ident = normalise_name(old) if old else None
            if not ended:
                new_id, gone = self.link("relation", item, d["entity"], key, new, "identity")
            targets = [
                f
                for f in self.live("relation", eid, key)
                if f.id != new_id
                and f.ident not in keep
                and (old_ident is None or f.ident == old_ident)
            ]
            gone += self.supersede(targets, new_id, item.held)
        elif ended:
            old_ident = normalise_value(old) if old else None
            gone = self.supersede(
                [
                    f
                    for f in self.live("attribute", eid, key)
                    if f.ident not in keep and (old_ident is None or f.ident == old_ident)
                ],
                None,
                item.held,
            )
        else:
            data = {"entity": d["entity"], "key": key, "value": new, "memoryCategory": "identity"}
            new_id, gone = self.attribute(item, data, normalise_value(old) if old else "", keep)
        applied = not (item.held or self.draft.write_held)
        self.draft.correction(correction_entry(new_id, ent[1], eid, key, old, new, applied, gone))
