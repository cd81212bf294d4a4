"""Netting one write against itself (pure), before it meets what is known.

Within one write the last statement about a single-valued slot is the one it makes, and
a correction applies to the facts stated before it: a fact the same write retracts is
never stored, and a correction never ends a value the write still asserts.
"""

from __future__ import annotations

from collections.abc import Sequence

from memwarden.domain.reconcile_rules import (
    NONE_VALUES,
    SINGLE_VALUED_LABELS,
    Incoming,
    is_multi_valued,
    normalise_key,
    normalise_name,
    normalise_value,
)

# Planning order: entities first, corrections after the facts they touch.
ORDER = ("entity", "attribute", "relation", "action", "correction", "instruction", "uncertainty")


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
    ordered = sorted(items, key=lambda i: ORDER.index(i.kind))
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
    idents: set[str] | frozenset[str]
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
    for item, stated in zip(items, said, strict=True):  # facts before corrections (ORDER)
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
        kept, stated_idents = frozenset(keep[stated[:2]]), stated[2]
        if item.kind == "correction" and not stated_idents:  # an ending correction
            out.append((item, kept))
        elif stated_idents & kept:  # still stated once the write's corrections apply
            out.append((item, kept if item.kind == "correction" else frozenset()))
        elif item.kind == "correction" and item.data.get("oldValue") is not None:
            ended = Incoming(item.row_id, item.kind, {**item.data, "newValue": "none"})
            out.append((ended, kept))
    return out
