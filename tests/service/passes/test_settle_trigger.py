"""The settle trigger (passes/schedule.py: settled): a Context whose change feed moved and
has been quiet for `passes.settle_minutes` gets a run of each pass that runs after writes,
once per feed position (its `settle` watermark); a Context without writes gets none."""

from __future__ import annotations

import datetime as dt

from memwarden.passes.schedule import settled
from tests.service.usecases import facts

TEXT = "My name is Alice. I work at Acme. I like hiking on weekends."


def test_the_settle_trigger_queues_the_passes_once_per_quiet_feed_position(svc, ctx, sql) -> None:
    svc.make_context()  # no writes, so never a run
    facts(svc, ctx, TEXT)
    now = dt.datetime.now(dt.UTC)
    assert svc.run(settled(svc.services, now)) == 0  # the feed moved just now: not quiet yet
    assert sql("SELECT count(*) FROM pass_run")[0][0] == 0
    later = now + dt.timedelta(minutes=10)
    queued = svc.run(settled(svc.services, later))
    runs = sql("SELECT context_id, trigger FROM pass_run")
    assert queued == len(runs) >= 1
    assert set(runs) == {(ctx.id, "settled")}
    seq = sql("SELECT max(seq) FROM change_event WHERE context_id = %s", (ctx.id,))[0][0]
    marks = sql(
        "SELECT unit, fingerprint FROM pass_watermark WHERE context_id = %s AND stage = 'settle'",
        (ctx.id,),
    )
    assert marks == [("", str(seq))]
    sql("UPDATE pass_run SET status = 'done'")  # the runs ended: only the watermark stops more
    assert svc.run(settled(svc.services, later)) == 0
