"""The record row carries its current revision's vector, and only that (0005_record_vector).

Property: after any sequence of commands, decisions and vector attachments, every record's
`embedding` equals the memory_embedding row of its current revision or is NULL, and vector
search finds a record exactly when it is servable and its current revision has a vector.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import httpx
import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.review.helpers import (
    attach,
    command,
    create,
    decide,
    ok,
    search_ids,
    unit_vector,
)
from tests.support.record_vectors import record_vector_offenders, record_vectors

STEPS = ("content", "expiry", "approve", "reject", "attach", "attach_old", "delete")
_axes = itertools.count()


def _step(alice: httpx.Client, rid: str, rev: int, step: str, vector: list[float]) -> None:
    """Apply one step at the current revision; refusals (404, 409) are part of the property."""
    if step == "content":
        command(alice, "update", record_id=rid, expected_revision=rev, content=f"v{rev}")
    elif step == "expiry":
        later = (datetime.now(UTC) + timedelta(days=1)).isoformat()
        command(alice, "update", record_id=rid, expected_revision=rev, expires_at=later)
    elif step in ("approve", "reject"):
        disposition = "approved" if step == "approve" else "rejected"
        decide(alice, rid, rev, disposition=disposition)
    elif step == "attach":
        attach(alice, rid, rev, vector)
    elif step == "attach_old" and rev > 1:
        assert attach(alice, rid, rev - 1, vector).status_code in (404, 409)
    elif step == "delete":
        command(alice, "delete", record_id=rid, expected_revision=rev)


def _servable(sql, rid: str) -> bool:
    return sql(
        "SELECT memory_servable(context_id, serving, review_disposition, expires_at, valid_to,"
        " derived_from, now()) FROM memory_record WHERE id = %s",
        (rid,),
    )[0][0]


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.sampled_from(STEPS), min_size=1, max_size=7))
def test_the_record_vector_follows_the_current_revision_through_any_history(
    alice: httpx.Client, sql, steps: list[str]
) -> None:
    vector = unit_vector(next(_axes) % 384)
    rid, rev = create(alice, "x")
    ok(attach(alice, rid, rev, vector))
    for step in ["attach", *steps]:
        _step(alice, rid, rev, step, vector)
        rev, _, carries = record_vectors(sql, rid)
        assert record_vector_offenders(sql) == []
        found = rid in search_ids(alice, vector=vector, limit=50)
        assert found == (carries and _servable(sql, rid)), (step, rev)


def test_a_new_revision_clears_the_row_vector_and_keeps_the_old_one_as_history(
    alice: httpx.Client, sql
) -> None:
    rid, rev = create(alice, "x")
    ok(attach(alice, rid, rev, unit_vector(5)))
    assert record_vectors(sql, rid) == (rev, rev, True)
    new = ok(decide(alice, rid, rev, disposition="approved"))["receipt"]["revision"]
    assert record_vectors(sql, rid) == (new, None, False)
    kept = sql("SELECT revision FROM memory_embedding WHERE record_id = %s", (rid,))
    assert kept == [(rev,)]
    ok(attach(alice, rid, new, unit_vector(6)))
    assert record_vectors(sql, rid) == (new, new, True)
    assert record_vector_offenders(sql) == []


def test_a_writer_that_forgets_to_clear_the_vector_is_refused(alice: httpx.Client, sql) -> None:
    rid, rev = create(alice, "x")
    ok(attach(alice, rid, rev, unit_vector(7)))
    with pytest.raises(psycopg.errors.CheckViolation, match="memory_record_embedding_current"):
        sql("UPDATE memory_record SET revision = revision + 1 WHERE id = %s", (rid,))
