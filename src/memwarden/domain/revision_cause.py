"""Why a revision of a record was made: the cause a history shows beside each revision.

The op of a revision (`create`, `supersede`, ...) says what changed; the cause says why. Only
a `supersede` has several causes, so every path that retires a record names its own
(`retirement.retire`); any other op's cause follows from the op (migration 0028 fills it
in the database, `cause_of` says the same here).
"""

from __future__ import annotations

from typing import Final, Literal, get_args

RevisionCause = Literal[
    "write",
    "correction",
    "declared_supersede",
    "hygiene_resolution",
    "consolidation",
    "review_decision",
    "restore",
    "delete",
    "erasure",
    "unknown",
]
"""`unknown`: a supersede written before causes were stored whose cause could not be told."""

SupersedeCause = Literal["correction", "declared_supersede", "hygiene_resolution", "consolidation"]
"""The causes a retirement may give: a write's own correction (a new value of a key, or a
stated correction), a writer's declared supersede, a hygiene resolution (automatic or a
person's), a consolidation merge."""

CAUSES: Final[tuple[str, ...]] = get_args(RevisionCause)

_BY_OP: Final[dict[str, RevisionCause]] = {
    "create": "write",
    "update": "correction",
    "delete": "delete",
    "review": "review_decision",
    "release": "review_decision",
    "restore": "restore",
    "erase": "erasure",
}


def cause_of(op: str) -> RevisionCause | None:
    """The cause `op` implies; None for `supersede` and `hold`, whose writer must say."""
    return _BY_OP.get(op)
