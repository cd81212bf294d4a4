"""A replay ingests the request as it was sent (issue 23, items 13 and 14): its declared
supersedes (checked again at replay time), its session when that still exists and is the
original principal's, its speaker; and it runs only while the original key is valid."""

from __future__ import annotations

import json
import uuid

from memwarden.pipeline.ingest import FactsInput, write_facts
from tests.integration.judge.helpers import audits
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


def test_a_replay_keeps_the_supersedes_the_request_declared(
    judging, judged, scripted, sql, db_url
) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    _passed(judging, ctx, scripted, "I'm Alice, CTO at Acme.")
    old = _live_attribute(sql, ctx.id)
    jid = _refused(judging, ctx, scripted, "I love jazz.", supersedes=[old])
    assert sql("SELECT payload->'supersedes' FROM retained_input") == [([str(old)],)]
    body = override_judgement(judging, ctx, jid, "pass", replay=True)
    assert body["replay"] == "ingested"
    [(serving, by)] = sql(
        "SELECT serving::text, superseded_by FROM memory_record WHERE id = %s", (old,)
    )
    assert serving == "superseded" and by is not None
    assert ("memory.declared_supersede", "record", old) in audits(db_url, ctx["id"])


def test_a_replay_checks_the_declared_supersedes_again_and_refuses_one_no_longer_live(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    _passed(judging, ctx, scripted, "I'm Alice, CTO at Acme.")
    old = _live_attribute(sql, ctx.id)
    jid = _refused(judging, ctx, scripted, "I love jazz.", supersedes=[old])
    # Meanwhile another write of alice's replaces the record the kept request names.
    _passed(judging, ctx, scripted, "I like tea.", supersedes=[old])
    turns = sql("SELECT count(*) FROM turn")
    with refused(403, "missing_grant", field="supersedes"):
        override_judgement(judging, ctx, jid, "pass", replay=True)
    assert sql("SELECT count(*) FROM turn") == turns
    assert sql("SELECT consumed_at IS NULL FROM retained_input") == [(True,)]


def test_a_replay_writes_into_the_session_the_request_named(judging, judged, scripted, sql) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    first = _passed(judging, ctx, scripted, "I'm Alice.")
    session = uuid.UUID(first["sessionId"])
    jid = _refused(judging, ctx, scripted, "I love jazz.", session_id=session)
    body = override_judgement(judging, ctx, jid, "pass", replay=True)
    assert body["replay"] == "ingested"
    assert body["ingest"]["sessionId"] == str(session)
    assert body["ingest"]["sessionReplay"] == "stored"
    assert sql("SELECT count(DISTINCT session_id), count(*) FROM turn") == [(1, 2)]
    assert sql("SELECT count(*) FROM session") == [(1,)]


def test_a_replay_whose_session_is_gone_opens_a_new_one_and_says_so(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    first = _passed(judging, ctx, scripted, "I'm Alice.")
    jid = _refused(judging, ctx, scripted, "I love jazz.", session_id=first["sessionId"])
    sql("DELETE FROM session")  # its turns go with it
    body = override_judgement(judging, ctx, jid, "pass", replay=True)
    assert body["replay"] == "ingested"
    assert body["ingest"]["sessionId"] != first["sessionId"]
    assert body["ingest"]["sessionReplay"] == "not_found"
    assert sql("SELECT id::text FROM session") == [(body["ingest"]["sessionId"],)]


def test_a_replay_of_a_request_without_a_session_opens_a_new_one(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    jid = _refused(judging, ctx, scripted, "I love jazz.")
    body = override_judgement(judging, ctx, jid, "pass", replay=True)
    assert body["ingest"]["sessionReplay"] == "new"
    assert sql("SELECT id::text FROM session") == [(body["ingest"]["sessionId"],)]


def test_a_replay_keeps_the_speaker_the_request_named(judging, judged, scripted, sql) -> None:
    ctx = judged(retain_inputs=True)
    _all_rows_pass(scripted)
    item = FactsInput("I love jazz.", speaker="u-42")
    scripted.script("judge", verdict("fail", "policy"))
    with refused(422, "judge_refused"):
        judging.run(write_facts(judging.services, ctx.caller, ctx.id, item))
    jid = judgements(judging, ctx, verdict="fail")[0]["id"]
    assert sql("SELECT payload->>'speaker' FROM retained_input") == [("u-42",)]
    assert override_judgement(judging, ctx, jid, "pass", replay=True)["replay"] == "ingested"
    assert sql("SELECT speaker FROM turn") == [("user:u-42",)]


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
