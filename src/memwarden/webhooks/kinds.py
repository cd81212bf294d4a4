"""The event kinds a subscription may ask for, and what each one is in memwarden (pure).

Every kind comes from something a transaction records: a change-feed entry (with its
`seq`, the delivery's `feedId`), a review-log entry whose verdict is fail, or a pair put
on the hygiene queue. The migration's `webhook_feed_kind` is the SQL twin of `feed_kind`
(the triggers choose with it); a test keeps them equal.
"""

from __future__ import annotations

from collections.abc import Sequence

EVENT_KINDS = (
    "created",
    "updated",
    "superseded",
    "deleted",
    "reviewed",
    "held",
    "released",
    "judge_fail",
    "hygiene_queued",
)

# Change-feed entry types (store: change_event.entry_type) and the kind each becomes;
# `created` is `held` when the new record is held by the judge.
FEED_KINDS = {
    "created": "created",
    "updated": "updated",
    "restored": "updated",
    "superseded": "superseded",
    "deleted": "deleted",
    "erased": "deleted",
    "reviewed": "reviewed",
    "released": "released",
}

# Kinds that name no record and never carry content.
RECORDLESS = frozenset({"judge_fail", "hygiene_queued"})


def feed_kind(entry_type: str, serving: str | None) -> str | None:
    """The kind of a change-feed entry; None for an entry type no kind stands for."""
    if entry_type == "created" and serving == "held":
        return "held"
    return FEED_KINDS.get(entry_type)


def unknown_kinds(events: Sequence[str]) -> list[str]:
    return [e for e in events if e not in EVENT_KINDS]


def normalise(events: Sequence[str]) -> list[str]:
    """Known kinds, each once, in the documented order."""
    wanted = set(events)
    return [k for k in EVENT_KINDS if k in wanted]
