"""The review log through its use cases: newest first, filters, page cursor, grant:manage."""

from __future__ import annotations

from memwarden.judge.review import list_entries
from tests.service.usecases import as_json, facts, facts_batch, judgement, judgements, refused
from tests.support.replies import PASS_VERDICT, rows_reply, verdict
from tests.support.scripted_model import Reply


def seed(judging, judged, scripted):
    """Three input entries (pass, warn, fail) and row entries from one facts write each."""
    ctx = judged()
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({"e0": "pass", "a0": "pass", "r0": "pass"})
    )
    for reply in (Reply.json(PASS_VERDICT), verdict("warn", "policy")):
        scripted.script("judge", reply)
        facts(judging, ctx, "hello there", infer="none")
    scripted.script("judge", verdict("fail", "policy"))
    with refused(422):  # refused, and recorded
        facts(judging, ctx, "hello there", infer="none")
    return ctx


def page(judging, ctx, **params):
    return as_json(judging.run(list_entries(judging.services, ctx.caller, ctx.id, **params)))


def test_entries_come_newest_first_with_a_page_cursor(judging, judged, scripted) -> None:
    ctx = seed(judging, judged, scripted)
    first = page(judging, ctx, limit=2)
    assert [e["verdict"] for e in first["judgements"]] == ["fail", "warn"]
    second = page(judging, ctx, limit=2, cursor=first["next_cursor"])
    assert [e["verdict"] for e in second["judgements"]] == ["pass"]
    assert second["next_cursor"] is None


def test_entries_filter_by_verdict_stage_and_held(judging, judged, scripted) -> None:
    ctx = seed(judging, judged, scripted)
    assert [e["verdict"] for e in judgements(judging, ctx, verdict="warn")] == ["warn"]
    assert judgements(judging, ctx, stage="row") == []
    assert len(judgements(judging, ctx, stage="input")) == 3
    assert judgements(judging, ctx, held=True) == []


def test_show_returns_one_entry_and_404_for_an_unknown_one(judging, judged, scripted) -> None:
    ctx = seed(judging, judged, scripted)
    newest = judgements(judging, ctx)[0]
    shown = judgement(judging, ctx, newest["id"])
    assert shown == newest
    assert set(shown) >= {"gate", "verdict", "reasons", "source", "scope", "excerpt", "held"}
    with refused(404):
        judgement(judging, ctx, "00000000-0000-4000-8000-000000000000")


def test_review_routes_need_grant_manage_over_the_whole_context(judging, judged) -> None:
    ctx = judged()
    reader = judging.add_key(ctx.id, ["memory_read", "memory_write", "memory_review"])
    scoped = judging.add_key(ctx.id, ["grant:manage"], subject="sc", scope="project/p1")
    with refused(403):
        judgements(judging, reader)
    with refused(403):
        judgements(judging, scoped)


def test_the_source_filter_is_applied_by_the_query_so_a_filtered_page_is_full(
    judging, judged, scripted
) -> None:
    """Two facts writes, then three batch items: the two newest facts entries lie behind
    the batch's, yet a page of two filtered by source holds both."""
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    for text in ("first note", "second note"):
        facts(judging, ctx, text, infer="none")
    facts_batch(judging, ctx, [{"text": f"batch {n}", "infer": "none"} for n in range(3)])
    newest = page(judging, ctx, limit=2)["judgements"]
    assert all(e["source"] == "facts_batch" for e in newest)
    filtered = page(judging, ctx, source="facts", limit=2)
    assert [e["source"] for e in filtered["judgements"]] == ["facts", "facts"]
    assert filtered["next_cursor"] is None
    batch = page(judging, ctx, source="facts_batch", limit=2)
    assert len(batch["judgements"]) == 2 and batch["next_cursor"]
    rest = page(judging, ctx, source="facts_batch", limit=2, cursor=batch["next_cursor"])
    assert [e["source"] for e in rest["judgements"]] == ["facts_batch"]


def test_an_unknown_source_is_refused_naming_the_field(judging, judged) -> None:
    ctx = judged()
    with refused(400, field="source"):
        page(judging, ctx, source="telepathy")
