"""A replay ingests the request as it was sent (issue 23, items 13 and 14): its declared
supersedes (checked again at replay time), its session when that still exists and is the
original principal's, its speaker; and it runs only while the original key is valid."""

from __future__ import annotations

import json
import uuid

from tests.service.usecases import facts, judgements, override_judgement, refused
from tests.support.replies import rows_reply, verdict


def _all_rows_pass(scripted) -> None:
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )


def _refused(judging, ctx, scripted, text: str, **write):
    """One write the input gate fails (its request kept); returns its entry's id."""
    scripted.script("judge", verdict("fail", "policy"))
    with refused(422, "judge_refused"):
        facts(judging, ctx, text, **write)
    return judgements(judging, ctx, verdict="fail")[0]["id"]


def _passed(judging, ctx, scripted, text: str, **write):
    scripted.script("judge", verdict("pass"))
    return facts(judging, ctx, text, **write)


def _live_attribute(sql, context_id) -> uuid.UUID:
    rows = sql(
        "SELECT id FROM memory_record WHERE context_id = %s AND kind = 'attribute'"
        " AND serving = 'live' ORDER BY id LIMIT 1",
        (context_id,),
    )
    return rows[0][0]


def test_a_replay_as_a_key_that_has_since_expired_is_refused_and_stays_replayable(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    jid = _refused(judging, ctx, scripted, "I love jazz.")
    sql("UPDATE api_key SET expires_at = now() - interval '1 second' WHERE id = %s", (ctx.key_id,))
    reviewer = judging.add_key(ctx.id, ["grant:manage"], subject="rita")
    with refused(403):
        override_judgement(judging, reviewer, jid, "pass", replay=True)
    assert sql("SELECT count(*) FROM turn") == [(0,)]
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]
