"""A replay and the consuming of its kept request commit together: a failure after the
ingest undoes both, and the request can still be replayed exactly once."""

from __future__ import annotations

import psycopg
import pytest

from tests.service.judge.test_override import refused_write
from tests.service.usecases import override_judgement

# Real database failures at the two steps after the ingest: consuming the kept request,
# and recording the override on the judgement.
FAILURES = {"consume": "retained_input", "override": "judgement"}


@pytest.mark.parametrize("step", sorted(FAILURES))
def test_a_failure_after_the_ingest_undoes_it_and_the_request_stays_replayable(
    judging, judged, scripted, sql, step
) -> None:
    ctx, entry = refused_write(judging, judged, scripted, retain_inputs=True)
    assert entry["retained"] is True
    table = FAILURES[step]
    sql(
        "CREATE FUNCTION fail_step() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$"
    )
    sql(
        f"CREATE TRIGGER fail_step BEFORE UPDATE ON {table}"
        " FOR EACH ROW EXECUTE FUNCTION fail_step()"
    )
    with pytest.raises(psycopg.errors.RaiseException):
        override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert sql("SELECT count(*) FROM turn") == [(0,)]
    assert sql("SELECT count(*) FROM memory_record") == [(0,)]
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]
    assert sql("SELECT override_verdict FROM judgement") == [(None,)]
    sql(f"DROP TRIGGER fail_step ON {table}")
    assert override_judgement(judging, ctx, entry["id"], "pass", replay=True)["replay"] == (
        "ingested"
    )
    assert sql("SELECT count(*) FROM turn") == [(1,)]
    again = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert again["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]
