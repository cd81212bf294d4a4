"""Routing: what happens to an adjudicated pair (a pure policy object, spec 2).

In this order:

1. Nothing decided (the offline adjudicator left the pair alone): kept both.
2. `complementary` first, before provenance and the queue: keep both, queue nothing,
   supersede nothing; a link edge only at `link_confidence` or above (low-confidence
   complementary drifts toward unrelated, and noisy edges degrade the graph).
3. `unrelated`: dismissed, nothing happens.
4. A pair whose sides are both authoritative goes to a person: queued, never applied.
5. `contradiction`: queued (nothing says which side wins).
6. `duplicate` and `supersedes` may auto-resolve, reversibly, when the verdict is at least
   `auto_resolve_min_confidence` sure and the side that would lose is not authoritative
   (an authoritative record is never invalidated without a person); otherwise queued. The
   loser of a supersede is the superseded side; of a duplicate the lower-ranked side, then
   the older one (equal: `b`, since a duplicate loses nothing).

The queue cap (the brake on a run's new queue rows) is a run-level stop, not a verdict:
`queue_cap_reached` says when a run must stop handing over work.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from memwarden.domain.provenance import Rank, is_authoritative
from memwarden.hygiene.adjudicate import Adjudication, Side

Action = Literal["kept_both", "linked", "queued", "auto_resolved", "dismissed"]
ACTIONS: Final[tuple[Action, ...]] = ("kept_both", "linked", "queued", "auto_resolved", "dismissed")
DEFAULT_LINK_CONFIDENCE: Final = 0.8
DEFAULT_AUTO_RESOLVE_MIN_CONFIDENCE: Final = 0.9


@dataclass(frozen=True, slots=True)
class Route:
    """The outcome: `loser` is set only for `auto_resolved`; `link` only with `linked`."""

    action: Action
    loser: Side | None = None
    link: bool = False
    reason: str = ""


def _other(side: Side) -> Side:
    return "b" if side == "a" else "a"


def _duplicate_loser(
    rank_a: Rank, rank_b: Rank, at_a: datetime | None, at_b: datetime | None
) -> Side:
    if rank_a != rank_b:
        return "a" if rank_a < rank_b else "b"
    if at_a is not None and at_b is not None and at_a != at_b:
        return "a" if at_a < at_b else "b"
    return "b"


def route(
    adjudication: Adjudication | None,
    rank_a: Rank,
    rank_b: Rank,
    *,
    at_a: datetime | None = None,
    at_b: datetime | None = None,
    link_confidence: float = DEFAULT_LINK_CONFIDENCE,
    auto_resolve_min_confidence: float = DEFAULT_AUTO_RESOLVE_MIN_CONFIDENCE,
) -> Route:
    """The route of one adjudicated pair (see the module docstring for the order)."""
    if adjudication is None:
        return Route("kept_both", reason="undecided")
    verdict, confidence = adjudication.verdict, adjudication.confidence
    if verdict == "complementary":
        if confidence >= link_confidence:
            return Route("linked", link=True, reason="complementary")
        return Route("kept_both", reason="complementary")
    if verdict == "unrelated":
        return Route("dismissed", reason="unrelated")
    if is_authoritative(rank_a) and is_authoritative(rank_b):
        return Route("queued", reason="authoritative")
    if verdict == "contradiction":
        return Route("queued", reason="contradiction")
    if verdict == "supersedes":
        assert adjudication.superseding is not None
        loser = _other(adjudication.superseding)
    else:
        loser = _duplicate_loser(rank_a, rank_b, at_a, at_b)
    if is_authoritative(rank_a if loser == "a" else rank_b):
        return Route("queued", reason="authoritative_loser")
    if confidence < auto_resolve_min_confidence:
        return Route("queued", reason="low_confidence")
    return Route("auto_resolved", loser=loser, reason=verdict)


def queue_cap_reached(queued_this_run: int, cap: int | None) -> bool:
    """Whether a run has handed over its share of queue rows and must stop (None: no cap)."""
    return cap is not None and queued_this_run >= cap
