"""rollup and gist, offline (extractive) and with a scripted model: derived records through
the row gate and reconciliation, traced to their sources, written once."""

from __future__ import annotations

import json

from tests.service.passes.helpers import run_pass
from tests.service.usecases import facts
from tests.support.scripted_model import Reply

SESSION_TEXT = (
    "My name is Alice. I work at Acme as a data engineer. "
    "Acme builds data pipelines for hospitals. I like hiking on weekends."
)


def _session(h, ctx, sql) -> tuple[str, list[str]]:
    facts(h, ctx, SESSION_TEXT)
    (sid,) = sql("SELECT DISTINCT session_id FROM turn")[0]
    turns = [str(t) for (t,) in sql("SELECT id FROM turn WHERE session_id = %s", (sid,))]
    return str(sid), turns


def test_an_offline_rollup_summarises_a_session_from_its_own_sentences(svc, ctx, sql) -> None:
    _sid, turns = _session(svc, ctx, sql)
    run = run_pass(svc, ctx, "rollup")
    assert run["status"] == "done" and run["counts"]["inputs"] >= 1
    rows = sql(
        "SELECT content->>'value', derived_from::text[], source_ref FROM memory_record"
        " WHERE source_kind = 'rollup' AND attr_key = 'session_summary'"
    )
    assert len(rows) == 1
    summary, derived, source_ref = rows[0]
    assert summary and all(s.strip() in SESSION_TEXT for s in summary.split(". ") if s)
    # Its turns, then the facts they gave (the summary serves only while those do).
    facts_given = [
        str(i)
        for (i,) in sql(
            "SELECT id FROM memory_record WHERE source_kind = 'turn' AND kind <> 'entity'"
            " ORDER BY created_at, id"
        )
    ]
    assert facts_given and derived == turns + facts_given
    assert str(source_ref) == run["runId"]


def test_re_running_a_pass_writes_nothing_new(svc, ctx, sql) -> None:
    _session(svc, ctx, sql)
    first = run_pass(svc, ctx, "rollup")
    assert first["counts"]["written"] >= 1
    before = sql("SELECT count(*) FROM memory_record")[0][0]
    again = run_pass(svc, ctx, "rollup")
    assert again["counts"] == {"inputs": 0, "written": 0, "dropped": 0, "held": 0}
    assert sql("SELECT count(*) FROM memory_record")[0][0] == before


def test_a_held_turn_never_feeds_a_rollup(svc, ctx, sql) -> None:
    _session(svc, ctx, sql)
    # As the input gate holds a warned write: the turn and every record drawn from it.
    sql("UPDATE turn SET serving = 'held'")
    sql("UPDATE memory_record SET serving = 'held'")
    run = run_pass(svc, ctx, "rollup")
    assert run["counts"]["inputs"] == 0
    assert sql("SELECT count(*) FROM memory_record WHERE source_kind = 'rollup'")[0][0] == 0


def test_a_rollup_with_a_model_frames_the_turns_and_appends_the_addendum(
    services_with, scripted, sql
) -> None:
    from tests.support.scripted_model import scripted_models

    h = services_with(**scripted_models(scripted, model_rollup="openai:rollup-model"))
    ctx = h.make_context(config={"prompt_addendums": {"rollup": "Write in British English."}})
    scripted.respond_with("rollup", Reply.json({"summary": "Alice, a data engineer at Acme."}))
    _session(h, ctx, sql)
    run = run_pass(h, ctx, "rollup")
    assert run["status"] == "done"
    asked = scripted.requests_for("rollup")
    session_call = [r for r in asked if "hiking" in r.user]
    assert session_call and "<<<TEXT" in session_call[0].user
    assert "## Context addendum" in session_call[0].system
    assert "British English" in session_call[0].system
    values = [
        v
        for (v,) in sql("SELECT content->>'value' FROM memory_record WHERE source_kind = 'rollup'")
    ]
    assert "Alice, a data engineer at Acme." in values
    assert sql("SELECT sum(prompt_tokens) > 0 FROM usage WHERE stage = 'rollup'")[0][0]


def test_the_row_gate_drops_a_failed_row_of_a_pass(services_with, scripted, sql) -> None:
    from tests.support.scripted_model import scripted_models

    h = services_with(
        **scripted_models(scripted, model_rollup="openai:rollup-model", model_judge="openai:judge")
    )
    ctx = h.make_context(config={"judge": {"enabled": True, "input": False}})
    scripted.respond_with("rollup", Reply.json({"summary": "Alice's password is hunter2."}))

    def rows(request) -> Reply:
        items = json.loads(request.user)
        return Reply.json(
            {
                "rows": [
                    {
                        "id": i["id"],
                        "verdict": "fail" if "hunter2" in json.dumps(i) else "pass",
                        "reasons": ["credential"] if "hunter2" in json.dumps(i) else [],
                    }
                    for i in items
                ]
            }
        )

    scripted.respond_with("row_judge", rows)
    scripted.respond_with("judge", Reply.json({"verdict": "pass", "reasons": []}))
    facts(h, ctx, SESSION_TEXT)
    run = run_pass(h, ctx, "rollup")
    assert run["status"] == "done" and run["counts"]["dropped"] >= 1
    bodies = [b for (b,) in sql("SELECT body FROM memory_record WHERE source_kind = 'rollup'")]
    assert not any("hunter2" in b for b in bodies)
    assert ("rollup", "fail") in sql("SELECT source, verdict FROM judgement")


def test_a_document_gets_a_gist_on_the_document_and_as_a_derived_record(svc, ctx, sql) -> None:
    from memwarden.documents.processing import process_document

    # A processed document as the worker leaves it.
    svc.run(_upload(svc, ctx))
    (doc_id,) = sql("SELECT id FROM document")[0]
    svc.run(process_document(svc.services, ctx.id, doc_id))
    run = run_pass(svc, ctx, "gist")
    assert run["status"] == "done" and run["counts"]["inputs"] == 1
    (gist,) = sql("SELECT gist FROM document")[0]
    assert gist and "Acme" in gist
    derived = sql(
        "SELECT derived_from::text[] FROM memory_record"
        " WHERE source_kind = 'gist' AND attr_key = 'gist'"
    )
    assert derived == [([str(doc_id)],)]
    from memwarden.documents.service import get

    shown = svc.run(get(svc.services, ctx.caller, ctx.id, doc_id))
    assert shown.gist == gist  # GET /documents/{id} cites it compactly


async def _upload(h, ctx):
    from memwarden.documents.service import upload

    return await upload(
        h.services,
        ctx.caller,
        ctx.id,
        filename="notes.txt",
        declared_type="text/plain",
        data=SESSION_TEXT.encode(),
        scope=None,
        visibility="shared",
    )


def test_each_session_keeps_its_own_summary(svc, ctx, sql) -> None:
    # Session entities are named `session <id>`: ids a few characters apart are near-identical
    # to an embedder, so they must resolve by exact name, never by similarity.
    for topic in ("hiking", "chess", "opera", "ramen", "jazz", "tea"):
        facts(svc, ctx, f"I like {topic} on weekends. {topic.title()} clears my head.")
    run_pass(svc, ctx, "rollup")
    rows = sql(
        "SELECT e.content->>'name', r.serving::text FROM memory_record r"
        " JOIN memory_record e ON e.id = r.entity_id"
        " WHERE r.attr_key = 'session_summary' AND r.serving = 'live'"
    )
    sessions = [str(s) for (s,) in sql("SELECT id FROM session")]
    assert sorted(n for n, _s in rows) == sorted(f"session {s}" for s in sessions)


def test_a_session_with_a_private_turn_is_summarised_privately_to_its_owner(svc, ctx, sql) -> None:
    facts(svc, ctx, SESSION_TEXT, visibility="private")
    run_pass(svc, ctx, "rollup")
    rows = sql(
        "SELECT DISTINCT visibility, owner_subject FROM memory_record WHERE source_kind = 'rollup'"
    )
    assert rows == [("private", "alice")]
