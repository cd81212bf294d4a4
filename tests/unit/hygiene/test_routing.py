"""Routing of adjudicated pairs, by table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memwarden.domain.provenance import Rank
from memwarden.hygiene.adjudicate import Adjudication
from memwarden.hygiene.routing import Route, queue_cap_reached, route

A, P, D = Rank.AUTHORITATIVE, Rank.PROVISIONAL, Rank.DERIVED
OLD = datetime(2026, 1, 1, tzinfo=UTC)
NEW = OLD + timedelta(days=1)


def adj(verdict: str, confidence: float = 0.95, superseding: str | None = None) -> Adjudication:
    return Adjudication(verdict, superseding, confidence, "m")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("adjudication", "ranks", "expected"),
    [
        # nothing decided: left alone
        (None, (P, P), Route("kept_both", reason="undecided")),
        (None, (A, A), Route("kept_both", reason="undecided")),
        # complementary first, before provenance: keep both, link only when confident
        (adj("complementary", 0.95), (A, A), Route("linked", link=True, reason="complementary")),
        (adj("complementary", 0.8), (P, A), Route("linked", link=True, reason="complementary")),
        (adj("complementary", 0.79), (A, A), Route("kept_both", reason="complementary")),
        (adj("complementary", 0.3), (P, P), Route("kept_both", reason="complementary")),
        # unrelated: nothing happens
        (adj("unrelated"), (A, A), Route("dismissed", reason="unrelated")),
        (adj("unrelated", 0.1), (P, D), Route("dismissed", reason="unrelated")),
        # authoritative pairs always go to a person
        (adj("duplicate", 1.0), (A, A), Route("queued", reason="authoritative")),
        (adj("supersedes", 1.0, "a"), (A, A), Route("queued", reason="authoritative")),
        (adj("contradiction", 1.0), (A, A), Route("queued", reason="authoritative")),
        # contradictions queue
        (adj("contradiction", 0.99), (P, P), Route("queued", reason="contradiction")),
        (adj("contradiction", 0.2), (D, P), Route("queued", reason="contradiction")),
        # provisional supersedes auto-resolve when sure: the superseded side loses
        (adj("supersedes", 0.95, "a"), (P, P), Route("auto_resolved", "b", reason="supersedes")),
        (adj("supersedes", 0.9, "b"), (P, D), Route("auto_resolved", "a", reason="supersedes")),
        (adj("supersedes", 0.89, "b"), (P, P), Route("queued", reason="low_confidence")),
        # ... but never invalidate an authoritative side
        (adj("supersedes", 0.99, "b"), (A, P), Route("queued", reason="authoritative_loser")),
        (adj("supersedes", 0.99, "a"), (A, P), Route("auto_resolved", "b", reason="supersedes")),
        # provisional duplicates: the older one loses; rank before age
        (adj("duplicate", 0.95), (P, P), Route("auto_resolved", "a", reason="duplicate")),
        (adj("duplicate", 0.5), (P, P), Route("queued", reason="low_confidence")),
        (adj("duplicate", 0.95), (A, P), Route("auto_resolved", "b", reason="duplicate")),
        (adj("duplicate", 0.95), (D, P), Route("auto_resolved", "a", reason="duplicate")),
        (adj("duplicate", 0.95), (P, D), Route("auto_resolved", "b", reason="duplicate")),
    ],
)
def test_a_pair_is_routed_by_verdict_then_provenance_then_confidence(
    adjudication: Adjudication | None, ranks: tuple[Rank, Rank], expected: Route
) -> None:
    assert route(adjudication, *ranks, at_a=OLD, at_b=NEW) == expected


@pytest.mark.parametrize(
    ("at_a", "at_b", "loser"),
    [(OLD, NEW, "a"), (NEW, OLD, "b"), (OLD, OLD, "b"), (None, NEW, "b"), (None, None, "b")],
)
def test_the_older_of_two_equal_ranked_duplicates_loses(
    at_a: datetime | None, at_b: datetime | None, loser: str
) -> None:
    found = route(adj("duplicate"), P, P, at_a=at_a, at_b=at_b)
    assert found == Route("auto_resolved", loser, reason="duplicate")  # type: ignore[arg-type]


def test_the_thresholds_are_the_callers_choice() -> None:
    strict = route(adj("supersedes", 0.95, "a"), P, P, auto_resolve_min_confidence=0.99)
    assert strict.action == "queued"
    loose = route(adj("complementary", 0.5), P, P, link_confidence=0.5)
    assert loose == Route("linked", link=True, reason="complementary")


@pytest.mark.parametrize(
    ("queued", "cap", "reached"),
    [
        (0, None, False),
        (10_000, None, False),
        (0, 0, True),
        (4, 5, False),
        (5, 5, True),
        (6, 5, True),
    ],
)
def test_a_run_stops_once_it_has_queued_its_cap(
    queued: int, cap: int | None, reached: bool
) -> None:
    assert queue_cap_reached(queued, cap) is reached
