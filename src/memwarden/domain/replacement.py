"""The replacement rule (pure): when one record may retire another.

Every way a record leaves serving because another takes its place (a write's supersede of a
single-valued slot, a declared supersede, a hygiene auto-resolution, a person's `keep_a` /
`keep_b`, a consolidation merge and the facts it carries, a replay, an approval) asks this
one predicate first. It holds the promise that no reader loses a fact without being able to
read what replaced it:

1. the replacement is served at the moment the retirement is applied (not held, rejected,
   deleted, expired, invalidated or itself superseded, and its own sources served);
2. every key that can read the retired record can read the replacement: it lives at the
   retired record's scope path or below it (grants cover by path prefix, so any prefix
   covering the retired path covers every path below it), a shared record is replaced only
   by a shared one, and a private one only by a private one of the same owner (a read
   that asks for one visibility must still find the replacement);
3. a derived record (a pass's output, a reflection, a judge note) never retires one of the
   records it was built from (it would stop serving itself), and never retires a record
   that is not derived unless a person decided it, or unless it restates that very fact
   (a merge carrying the merged-away entity's facts to the survivor: the fact moves, it
   is not replaced by another).

A refusal is a reason code; the caller keeps both, or puts the pair in front of a person,
never applies it.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, Literal

from memwarden.domain.scope import covers

Refusal = Literal[
    "same_record",
    "replacement_not_served",
    "replacement_outside_scope",
    "replacement_other_visibility",
    "replacement_of_another_owner",
    "replacement_derived_from_it",
    "derived_replacement",
]
REFUSALS: Final[tuple[Refusal, ...]] = (
    "same_record",
    "replacement_not_served",
    "replacement_outside_scope",
    "replacement_other_visibility",
    "replacement_of_another_owner",
    "replacement_derived_from_it",
    "derived_replacement",
)
MESSAGES: Final[dict[Refusal, str]] = {
    "same_record": "a record cannot replace itself",
    "replacement_not_served": "the replacement is not served (held, rejected, deleted, "
    "expired or itself replaced)",
    "replacement_outside_scope": "the replacement is not at the replaced record's scope path "
    "or below it, so some readers of the one could not read the other",
    "replacement_other_visibility": "a shared record is replaced only by a shared one, a "
    "private one only by a private one",
    "replacement_of_another_owner": "a private record can be replaced only by its owner's",
    "replacement_derived_from_it": "a derived record cannot replace a record it was built from",
    "derived_replacement": "a derived record replaces a stated one only by a person's decision",
}


@dataclass(frozen=True, slots=True)
class Holder:
    """A record as the rule reads it: whether it is served now, where it lives, who owns
    it, and (for a derived record) every record it was built from, transitively."""

    id: uuid.UUID
    served: bool
    scope_path: str
    visibility: str
    owner_subject: str
    derived: bool = False
    sources: Collection[uuid.UUID] = frozenset()


def refusal(
    retired: Holder, replacement: Holder, *, by_person: bool = False, restating: bool = False
) -> Refusal | None:
    """Why `replacement` may not retire `retired` (None: it may).

    `by_person`: a person decided it (a reviewer's `keep_a` / `keep_b`); `restating`: the
    replacement restates the retired fact itself (a merge's carried fact). Either lets a
    derived record replace a stated one; nothing lets it replace its own source."""
    if retired.id == replacement.id:
        return "same_record"
    if not replacement.served:
        return "replacement_not_served"
    if not covers(retired.scope_path, replacement.scope_path):
        return "replacement_outside_scope"
    if replacement.visibility != retired.visibility:
        return "replacement_other_visibility"
    if retired.visibility != "shared" and replacement.owner_subject != retired.owner_subject:
        return "replacement_of_another_owner"
    if replacement.derived:
        if retired.id in replacement.sources:
            return "replacement_derived_from_it"
        if not retired.derived and not (by_person or restating):
            return "derived_replacement"
    return None


def may_replace(
    retired: Holder, replacement: Holder, *, by_person: bool = False, restating: bool = False
) -> bool:
    return refusal(retired, replacement, by_person=by_person, restating=restating) is None
