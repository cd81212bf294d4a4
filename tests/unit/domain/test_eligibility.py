"""The pure serving gate, enumerated over every combination of its inputs."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from memwarden.domain.eligibility import (
    MAX_SOURCE_DEPTH,
    REASONS,
    SERVING_STATES,
    STORED_DISPOSITIONS,
    RecordState,
    first_blocking,
    is_servable,
    is_servable_with_sources,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TIMES = (None, NOW - timedelta(hours=1), NOW, NOW + timedelta(hours=1))


def all_states() -> list[RecordState]:
    return [
        RecordState(serving, disposition, expires_at, valid_to)
        for serving, disposition, expires_at, valid_to in itertools.product(
            SERVING_STATES, STORED_DISPOSITIONS, TIMES, TIMES
        )
    ]


def expected_reasons(state: RecordState) -> list[str]:
    """Every reason that applies, written independently of the rule's if-chain."""
    found = {
        "deleted": state.serving in ("deleted", "erased"),  # erased blocks as deleted
        "rejected": state.review_disposition == "rejected",
        "held": state.serving == "held",
        "superseded": state.serving == "superseded",
        "invalidated": state.valid_to is not None and state.valid_to <= NOW,
        "expired": state.expires_at is not None and state.expires_at <= NOW,
    }
    return [reason for reason in REASONS if found[reason]]


def test_every_combination_is_servable_exactly_when_no_reason_applies() -> None:
    states = all_states()
    assert len(states) == 5 * 3 * 4 * 4
    for state in states:
        verdict = is_servable(state, NOW)
        reasons = expected_reasons(state)
        assert verdict.servable == (not reasons), state
        assert verdict.reason == (reasons[0] if reasons else None), state


def test_approval_never_makes_an_otherwise_blocked_record_servable() -> None:
    for state in all_states():
        approved = RecordState("live", "approved", state.expires_at, state.valid_to)
        unreviewed = RecordState("live", None, state.expires_at, state.valid_to)
        assert is_servable(approved, NOW) == is_servable(unreviewed, NOW)


def test_expiry_is_reached_at_the_exact_instant() -> None:
    assert is_servable(RecordState("live", expires_at=NOW), NOW).reason == "expired"
    assert is_servable(RecordState("live", expires_at=NOW + timedelta(microseconds=1)), NOW)


def test_an_unreviewed_live_record_is_servable() -> None:
    assert is_servable(RecordState("live"), NOW).servable


def ids(n: int) -> list[uuid.UUID]:
    return [uuid.UUID(int=i + 1) for i in range(n)]


def test_a_record_without_sources_reports_its_own_state() -> None:
    (a,) = ids(1)
    blocking = first_blocking(a, {a: RecordState("live", "rejected")}, NOW)
    assert blocking is not None and (blocking.record_id, blocking.reason, blocking.depth) == (
        a,
        "rejected",
        0,
    )


def test_the_first_blocking_source_is_the_shallowest_in_source_order() -> None:
    a, b, c, d = ids(4)
    records = {
        a: RecordState("live", derived_from=(b, c)),
        b: RecordState("live", derived_from=(d,)),
        c: RecordState("held"),
        d: RecordState("live", "rejected"),
    }
    blocking = first_blocking(a, records, NOW)
    assert blocking is not None and (blocking.record_id, blocking.reason, blocking.depth) == (
        c,
        "held",
        1,
    )


def test_cycles_end_and_a_servable_cycle_is_servable() -> None:
    a, b = ids(2)
    records = {a: RecordState("live", derived_from=(b,)), b: RecordState("live", derived_from=(a,))}
    assert first_blocking(a, records, NOW) is None


def test_unknown_sources_do_not_block() -> None:
    a, b = ids(2)
    assert is_servable_with_sources(a, {a: RecordState("live", derived_from=(b,))}, NOW)


def test_sources_deeper_than_the_bound_are_not_examined() -> None:
    chain = ids(MAX_SOURCE_DEPTH + 2)
    records = {
        rid: RecordState("live", derived_from=(chain[i + 1],)) for i, rid in enumerate(chain[:-1])
    }
    records[chain[-1]] = RecordState("deleted")
    assert first_blocking(chain[0], records, NOW) is None
    records[chain[-2]] = RecordState("deleted")
    blocking = first_blocking(chain[0], records, NOW)
    assert blocking is not None and blocking.depth == MAX_SOURCE_DEPTH


state_strategy = st.builds(
    RecordState,
    serving=st.sampled_from(SERVING_STATES),
    review_disposition=st.sampled_from(STORED_DISPOSITIONS),
    expires_at=st.sampled_from(TIMES),
    valid_to=st.sampled_from(TIMES),
)


@given(st.lists(state_strategy, min_size=1, max_size=6), st.data())
def test_a_record_with_sources_is_servable_only_if_every_reachable_record_is(
    states: list[RecordState], data: st.DataObject
) -> None:
    keys = ids(len(states))
    records = {}
    for rid, state in zip(keys, states, strict=True):
        sources = data.draw(st.lists(st.sampled_from(keys), max_size=3))
        records[rid] = RecordState(
            state.serving,
            state.review_disposition,
            state.expires_at,
            state.valid_to,
            tuple(sources),
        )
    reachable, frontier = {keys[0]}, [keys[0]]
    while frontier:
        nxt = [s for rid in frontier for s in records[rid].derived_from if s not in reachable]
        reachable.update(nxt)
        frontier = nxt
    expected = all(is_servable(records[rid], NOW).servable for rid in reachable)
    assert is_servable_with_sources(keys[0], records, NOW) == expected
