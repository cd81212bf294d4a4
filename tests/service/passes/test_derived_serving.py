"""A derived record serves only while every source it was made from serves: rejecting one
source takes a pass's summary out of /query, /profile and chat's context at once."""

from __future__ import annotations

from tests.integration.chat.conftest import CHAT_MODEL
from tests.service.passes.helpers import run_pass
from tests.service.review.memory import Who, decide, eligibility
from tests.service.usecases import chat, facts, profile, query
from tests.support.scripted_model import Reply, scripted_models

SCOPE_PATH = "project/p1/agent/a1"  # the review helpers' SCOPE as a path
SUMMARY = "Alice is a data engineer at Acme who loves hiking."


def _summarised(services_with, scripted, sql):
    h = services_with(
        **scripted_models(
            scripted, model_chat=f"openai:{CHAT_MODEL}", model_rollup="openai:rollup-model"
        )
    )
    ctx = h.make_context(subject="alice")
    # The entity's profile summary (its facts, one per line) is SUMMARY; the session's not.
    scripted.respond_with(
        "rollup",
        lambda r: Reply.json({"summary": SUMMARY if "\nAlice: " in r.user else "A chat."}),
    )
    scripted.respond_with("chat", Reply.text("Noted."))
    facts(h, ctx, "My name is Alice. I work at Acme. I love hiking.", scope=[SCOPE_PATH])
    run = run_pass(h, ctx, "rollup")
    assert run["status"] == "done"
    return h, ctx


def _summary_hits(h, ctx) -> list[dict]:
    return [
        x
        for x in query(h, ctx, "Alice data engineer Acme hiking")
        if x["text"].find(SUMMARY[:20]) >= 0
    ]


def test_a_summary_shows_where_it_came_from_and_leaves_every_read_when_a_source_is_rejected(
    services_with, scripted, sql
) -> None:
    h, ctx = _summarised(services_with, scripted, sql)
    hits = _summary_hits(h, ctx)
    assert hits and hits[0]["derivedBy"] == "rollup"
    profile_sources = set(hits[0]["derivedFrom"])
    fact_ids = {
        str(i)
        for (i,) in sql(
            "SELECT id FROM memory_record WHERE source_kind = 'turn' AND kind = 'attribute'"
        )
    }
    assert fact_ids and fact_ids <= profile_sources
    seen = profile(h, ctx, "Alice")
    assert (
        any(SUMMARY in str(f) for f in seen["facts"]) if "facts" in seen else SUMMARY in str(seen)
    )
    chat(h, ctx, "What do you know about Alice?", remember=False)
    assert any(SUMMARY in r.user or SUMMARY in r.system for r in scripted.requests_for("chat"))

    # A reviewer rejects one fact the summary was made from.
    rid, rev = sql(
        "SELECT id, revision FROM memory_record WHERE source_kind = 'turn' AND kind = 'attribute'"
        " ORDER BY created_at LIMIT 1"
    )[0]
    decide(Who.of(h, ctx), str(rid), rev, disposition="rejected", evidence_ref="case://pass/1")

    assert _summary_hits(h, ctx) == []
    # The eligibility diagnostic says why: the rejected source, one level down.
    summary_id = sql(
        "SELECT id FROM memory_record WHERE attr_key = 'profile_summary'"
        " AND content->>'value' = %s",
        (SUMMARY,),
    )[0][0]
    why = eligibility(Who.of(h, ctx), str(summary_id))
    assert why["servable"] is False
    assert why["blocking"] == {"record_id": str(rid), "reason": "rejected", "depth": 1}
    assert SUMMARY not in str(profile(h, ctx, "Alice"))
    before = len(scripted.requests_for("chat"))
    chat(h, ctx, "What do you know about Alice?", remember=False)
    later = scripted.requests_for("chat")[before:]
    assert later and not any(SUMMARY in r.user or SUMMARY in r.system for r in later)
