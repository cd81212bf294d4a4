"""Releasing a hold advances the revision; the released revision's vector is on the row."""

from __future__ import annotations

from tests.service.judge.test_holds import held_write
from tests.service.usecases import decide_hold
from tests.support.record_vectors import record_vector_offenders


def test_released_records_carry_the_vector_of_their_released_revision(
    judging, judged, scripted, sql
) -> None:
    ctx, held = held_write(judging, judged, scripted)
    assert record_vector_offenders(sql) == []
    decide_hold(judging, ctx, held["id"], approve=True)
    rows = sql("SELECT revision, embedding_revision FROM memory_record WHERE serving = 'live'")
    assert rows and all(rev == vec_rev for rev, vec_rev in rows)
    assert record_vector_offenders(sql) == []


def test_rejected_held_records_carry_no_vector(judging, judged, scripted, sql) -> None:
    ctx, held = held_write(judging, judged, scripted)
    decide_hold(judging, ctx, held["id"], approve=False)
    assert sql("SELECT count(*) FROM memory_record WHERE embedding IS NOT NULL") == [(0,)]
    assert record_vector_offenders(sql) == []
