"""The reconciliation planner (pure): gated diff items + what is known -> writes as data.

Identical facts are no-ops that report the existing id; a new value of a single-valued
key or label supersedes the live one; a held write adds rows but never supersedes.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from memwarden.domain.reconcile_base import PlannerBase
from memwarden.domain.reconcile_rules import (
    NONE_VALUES,
    SINGLE_VALUED_LABELS,
    IdFactory,
    Incoming,
    Known,
    KnownFact,
    NewRecord,
    Plan,
    human,
    is_multi_valued,
    normalise_key,
    normalise_name,
    normalise_value,
)

_ORDER = ("entity", "attribute", "relation", "action", "correction", "instruction", "uncertainty")
JUDGE_NOTE_ABOUT = "ingest judge warning"


class _Planner(PlannerBase):
    def link(
        self,
        kind: str,
        item: Incoming,
        subj: str,
        label: str,
        obj: str,
        category: str,
    ) -> tuple[uuid.UUID | None, list[str]]:
        key = normalise_key(label)
        s = self.entity(subj, held=item.held)
        if s is None or not key:
            return None, []
        held = item.held or self.write_held
        if kind == "relation":
            o = self.entity(obj, held=item.held)
            if o is None:
                return None, []
            oid: uuid.UUID | None = o[0]
            oname, ident = o[1], normalise_name(obj)
        else:
            found = self.names.get(normalise_name(obj)) or (
                (k.id, k.name) if (k := self.known.entities.get(normalise_name(obj))) else None
            )
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
            self.report(f"{kind}s", same.id, {**entry, "isNew": False})
            return same.id, []
        body = " ".join(p for p in (s[1], human(key), oname) if p)
        rec = self.add(
            NewRecord(
                self.new_id(),
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
        self.report(f"{kind}s", rec.id, {**entry, "isNew": True})
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
        ent = self.entity(d["entity"], held=item.held)
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
        self.plan.diff["corrections"].append(
            {
                "id": str(new_id) if new_id else None,
                "entity": ent[1],
                "entityId": str(eid),
                "key": key,
                "oldValue": old,
                "newValue": new,
                "applied": not (item.held or self.write_held),
                "supersededIds": gone,
            }
        )

    def note(self, kind: str, item: Incoming, d: Mapping[str, Any]) -> None:
        if kind == "instruction":
            ident, content = (
                normalise_value(d["description"]),
                {"label": d["label"], "description": d["description"]},
            )
            body = f"{d['label']}: {d['description']}"
        else:
            ident = f"{normalise_value(d['about'])}|{normalise_value(d['reason'])}"
            content = {"about": d["about"], "reason": d["reason"]}
            body = f"Uncertain about {d['about']}: {d['reason']}"
        key = "instructions" if kind == "instruction" else "uncertainties"
        existing = self.notes.get((kind, ident))
        if existing is not None:
            self.report(key, existing, {**content, "isNew": False})
            return
        rec = self.add(
            NewRecord(
                self.new_id(),
                kind,
                "context",
                content,
                body,
                ident,
                body,
                item.held or self.write_held,
                item.row_id,
            )
        )
        self.notes[(kind, ident)] = rec.id
        self.report(key, rec.id, {**content, "isNew": True})

    def judge_note(self, warned: Mapping[str, Sequence[str]]) -> None:
        codes = sorted({c for reasons in warned.values() for c in reasons})
        ids = [str(r.id) for r in self.plan.records if r.row_id in warned]
        reason = "the ingest judge warned about rows of this write: " + (", ".join(codes) or "-")
        content = {
            "about": JUDGE_NOTE_ABOUT,
            "reason": reason,
            "judgeReasons": codes,
            "records": ids,
        }
        body = f"Uncertain about {JUDGE_NOTE_ABOUT}: {reason}"
        rec = self.add(
            NewRecord(
                self.new_id(),
                "uncertainty",
                "context",
                content,
                body,
                f"{JUDGE_NOTE_ABOUT}|{reason}",
                body,
                self.write_held,
            )
        )
        self.report(
            "uncertainties", rec.id, {"about": JUDGE_NOTE_ABOUT, "reason": reason, "isNew": True}
        )


def _slot(item: Incoming) -> tuple[str, str] | None:
    """Where a single-valued fact lives: one value per entity and key (or label)."""
    d = item.data
    if item.kind in ("attribute", "correction"):
        key = normalise_key(d["key"])
        return None if is_multi_valued(key) else (normalise_name(d["entity"]), key)
    if item.kind == "relation" and normalise_key(d["label"]) in SINGLE_VALUED_LABELS:
        return (normalise_name(d["subject"]), normalise_key(d["label"]))
    return None


def last_wins(items: Sequence[Incoming]) -> list[Incoming]:
    """Within one write, the last statement about a single-valued slot is the one it makes
    (corrections count as last: they are applied after the facts they correct)."""
    ordered = sorted(items, key=lambda i: _ORDER.index(i.kind))
    last = {slot: n for n, i in enumerate(ordered) if (slot := _slot(i)) is not None}
    return [i for n, i in enumerate(ordered) if (slot := _slot(i)) is None or last[slot] == n]


def _forms(value: object) -> frozenset[str]:
    """A value's identities as an attribute value and as a relation object."""
    text = str(value)
    return frozenset({normalise_value(text), normalise_name(text)} - {""})


def _said(item: Incoming) -> tuple[str, str, frozenset[str]] | None:
    """(entity, key, value identities) that a fact or a correction's new value states,
    for matching against a later correction's old value; a correction that ends the value
    states none. None for items that are not about an entity's key."""
    d = item.data
    idents: AbstractSet[str]
    if item.kind == "attribute":
        entity, key, idents = d["entity"], d["key"], {normalise_value(str(d["value"]))}
    elif item.kind == "relation":
        entity, key = d["subject"], d["label"]
        idents = {normalise_name(str(d.get("object") or ""))}
    elif item.kind == "correction":
        ended = normalise_value(str(d["newValue"])) in NONE_VALUES
        entity, key, idents = d["entity"], d["key"], set() if ended else _forms(d["newValue"])
    else:
        return None
    return normalise_name(entity), normalise_key(key), frozenset(set(idents) - {""})


def net_of_corrections(
    items: Sequence[Incoming], write_held: bool
) -> list[tuple[Incoming, frozenset[str]]]:
    """What one write states, per entity and key, once its own corrections are applied.

    "Alice likes Oslo" followed, in the same write, by "Alice no longer likes Oslo" says
    that she does not: storing the fact only to end it would store it again (and end it
    again) each time the write is repeated. So the facts a later correction retracts are
    dropped, a correction whose new value is retracted later ends only the value it
    replaced, and every correction is given the values the write still asserts for its
    slot (its `keep`), which it must not end. Held corrections change nothing: they may
    never be applied. Returns (item, keep) pairs in planning order.
    """
    said = [_said(item) for item in items]
    keep: dict[tuple[str, str], set[str]] = {}
    corrected: set[tuple[str, str]] = set()
    for item, stated in zip(items, said, strict=True):  # facts before corrections (_ORDER)
        if stated is None or write_held or (item.held and item.kind == "correction"):
            continue
        group, idents = stated[:2], stated[2]
        slot = keep.setdefault(group, set())
        if item.kind == "correction":
            corrected.add(group)
            old = item.data.get("oldValue")
            if old is not None:
                slot -= _forms(old)
            elif not idents:  # ends every value
                slot.clear()
        slot |= idents
    out: list[tuple[Incoming, frozenset[str]]] = []
    for item, stated in zip(items, said, strict=True):
        if stated is None or item.held or write_held or stated[:2] not in corrected:
            out.append((item, frozenset()))
            continue
        kept, idents = frozenset(keep[stated[:2]]), stated[2]
        if item.kind == "correction" and not idents:  # an ending correction
            out.append((item, kept))
        elif idents & kept:  # still stated once the write's corrections apply
            out.append((item, kept if item.kind == "correction" else frozenset()))
        elif item.kind == "correction" and item.data.get("oldValue") is not None:
            ended = Incoming(item.row_id, item.kind, {**item.data, "newValue": "none"})
            out.append((ended, kept))
    return out


def plan(
    items: Sequence[Incoming],
    known: Known,
    new_id: IdFactory,
    *,
    write_held: bool = False,
    warned: Mapping[str, Sequence[str]] | None = None,
) -> Plan:
    """Reconcile one write's items (entities first, corrections after the facts they touch)."""
    p = _Planner(known, new_id, write_held)
    for item, keep in net_of_corrections(last_wins(items), write_held):
        d = item.data
        if item.kind == "entity":
            p.entity(
                d["name"],
                d.get("entityType") or "other",
                d.get("memoryCategory", "context"),
                item.held,
                item.row_id,
            )
        elif item.kind == "attribute":
            p.attribute(item, d)
        elif item.kind in ("relation", "action"):
            subj = d["subject"] if item.kind == "relation" else d["actor"]
            p.link(
                item.kind,
                item,
                subj,
                d["label"],
                d.get("object") or "",
                d.get("memoryCategory", "context"),
            )
        elif item.kind == "correction":
            p.correction(item, d, keep)
        else:
            p.note(item.kind, item, d)
    if warned:
        p.judge_note(warned)
    return p.plan
