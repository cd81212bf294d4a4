"""A session summary is made from its turns' text, so it serves only while the records
extracted from those turns do: rejecting them takes the summary out of /query."""

from __future__ import annotations

from tests.service.passes.helpers import run_pass
from tests.service.review.memory import Who, decide
from tests.service.usecases import facts, query

SCOPE_PATH = "project/p1/agent/a1"  # the review helpers' SCOPE as a path
TEXT = (
    "My name is Alice. I work at Acme as a data engineer. "
    "Acme builds data pipelines for hospitals. I like hiking on weekends."
)


def _session_summaries(h, ctx) -> list[dict]:
    hits = query(h, ctx, "Alice Acme data engineer hiking weekends", limit=50)
    return [x for x in hits if "session_summary" in str(x.get("content"))]


def test_a_session_summary_names_the_records_its_turns_gave_and_leaves_query_when_they_are_rejected(
    svc, ctx, sql
) -> None:
    facts(svc, ctx, TEXT, scope=[SCOPE_PATH])
    assert run_pass(svc, ctx, "rollup")["status"] == "done"
    (summary,) = _session_summaries(svc, ctx)
    extracted = sql(
        "SELECT r.id, r.revision FROM memory_record r JOIN turn t ON t.id = r.source_ref"
        " WHERE r.source_kind = 'turn' AND r.kind <> 'entity'"
    )
    turns = {str(t) for (t,) in sql("SELECT id FROM turn")}
    assert extracted
    assert set(summary["derivedFrom"]) >= turns | {str(i) for i, _ in extracted}

    for rid, rev in extracted:  # a reviewer rejects everything the turns gave
        decide(Who.of(svc, ctx), str(rid), rev, disposition="rejected", evidence_ref="case://s/1")

    assert _session_summaries(svc, ctx) == []
    # A later run does not bring the summary back while the rejected records stand.
    run_pass(svc, ctx, "rollup")
    assert _session_summaries(svc, ctx) == []
