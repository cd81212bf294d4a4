"""Releasing a hold advances the revision; the released revision's vector is on the row."""

from __future__ import annotations

from tests.integration.judge.test_holds import held_write
from tests.support.record_vectors import record_vector_offenders


def test_released_records_carry_the_vector_of_their_released_revision(
    judged, client, scripted, sql
) -> None:
    _ctx, c, url, _held = held_write(judged, client, scripted)
    assert record_vector_offenders(sql) == []
    c.post(f"{url}/approve")
    rows = sql("SELECT revision, embedding_revision FROM memory_record WHERE serving = 'live'")
    assert rows and all(rev == vec_rev for rev, vec_rev in rows)
    assert record_vector_offenders(sql) == []


def test_rejected_held_records_carry_no_vector(judged, client, scripted, sql) -> None:
    _ctx, c, url, _held = held_write(judged, client, scripted)
    c.post(f"{url}/reject")
    assert sql("SELECT count(*) FROM memory_record WHERE embedding IS NOT NULL") == [(0,)]
    assert record_vector_offenders(sql) == []
