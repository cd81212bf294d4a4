"""Judge defects an audit found (issue 23, items 15 to 17): warned instructions under
`on_warn: hold`, the row judge's budget checks, which requests `retain_inputs` keeps, what
a later override keeps, what a dry run's limit counts, a refused document's entry."""

from __future__ import annotations

import json

import pytest

from tests.service.usecases import (
    decide_hold,
    dry_run,
    facts,
    judgement,
    judgements,
    override_judgement,
    refused,
    state,
)
from tests.support.replies import rows_reply, verdict

TEXT = "I'm Alice. I work at Acme. Always be brief."


def _rows(scripted, instruction: str = "pass") -> None:
    """The row judge passes every row, except instruction rows (`i0`...): `instruction`."""
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply(
            {
                i["id"]: ("warn", "policy")
                if i["id"].startswith("i") and instruction == "warn"
                else "pass"
                for i in json.loads(r.user)
            }
        ),
    )


def _judge_notes(found: dict) -> list[dict]:
    return [u for u in found["uncertainties"] if "judgeReasons" in u["content"]]


# item 15


def test_a_warned_instruction_in_a_write_that_is_not_held_is_written_and_flagged(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("pass"))
    _rows(scripted, instruction="warn")
    out = facts(judging, ctx, TEXT)
    assert out["held"] is False
    (written,) = out["extraction"]["instructions"]
    assert "brief" in written["description"]
    seen = state(judging, ctx)
    assert [i["id"] for i in seen["instructions"]] == [written["id"]]
    (note,) = _judge_notes(seen)
    assert note["content"]["judgeReasons"] == ["policy"]
    assert note["content"]["records"] == [written["id"]]
    assert sql("SELECT serving::text FROM memory_record WHERE kind = 'instruction'") == [("live",)]


def test_a_warned_instruction_in_a_held_write_is_not_stored(judging, judged, scripted, sql) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    _rows(scripted, instruction="warn")
    out = facts(judging, ctx, TEXT)
    assert out["held"] is True
    assert out["extraction"]["instructions"] == []
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'instruction'") == [(0,)]
    warned = [j for j in judgements(judging, ctx, stage="row") if j["verdict"] == "warn"]
    assert len(warned) == 1  # its warn entry is still recorded


# item 17: retain_inputs keeps a warn's request too


def test_retain_inputs_keeps_the_request_of_a_warned_write(judging, judged, scripted, sql) -> None:
    ctx = judged(retain_inputs=True)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    _rows(scripted)
    facts(judging, ctx, TEXT)
    (entry,) = judgements(judging, ctx, stage="input")
    assert entry["verdict"] == "warn" and entry["retained"] is True
    assert sql("SELECT payload->>'text' FROM retained_input") == [(TEXT,)]


def test_a_replay_of_a_warned_write_that_was_stored_is_not_ingested_again(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    _rows(scripted)
    facts(judging, ctx, TEXT)
    (entry,) = judgements(judging, ctx, stage="input")
    body = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert body["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]


def test_a_held_write_awaiting_its_decision_is_not_replayed(judging, judged, scripted, sql) -> None:
    ctx = judged(retain_inputs=True, on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    _rows(scripted)
    assert facts(judging, ctx, TEXT)["held"] is True
    (entry,) = judgements(judging, ctx, stage="input")
    body = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert body["replay"] == "not_retained"
    assert sql("SELECT count(*), count(*) FILTER (WHERE serving = 'held') FROM turn") == [(1, 1)]


def test_a_rejected_held_write_can_be_replayed_from_its_kept_request(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True, on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    _rows(scripted)
    facts(judging, ctx, TEXT)
    (entry,) = judgements(judging, ctx, stage="input")
    decide_hold(judging, ctx, entry["id"], approve=False)
    assert sql("SELECT count(*) FROM turn") == [(0,)]
    body = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert body["replay"] == "ingested"
    assert sql("SELECT serving::text FROM turn") == [("live",)]


# item 17: a later override keeps an ingested entry's replay state


def test_a_later_override_keeps_the_replay_state_of_an_ingested_entry(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    scripted.script("judge", verdict("fail", "policy"))
    _rows(scripted)
    with refused(422, "judge_refused"):
        facts(judging, ctx, TEXT)
    (entry,) = judgements(judging, ctx)
    assert override_judgement(judging, ctx, entry["id"], "pass", replay=True)["replay"] == (
        "ingested"
    )
    assert override_judgement(judging, ctx, entry["id"], "fail")["replay"] == "not_requested"
    assert judgement(judging, ctx, entry["id"])["replay"] == "ingested"
    again = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert again["replay"] == "not_retained"
    shown = judgement(judging, ctx, entry["id"])
    assert shown["replay"] == "ingested" and shown["effective_verdict"] == "pass"
    assert sql("SELECT count(*) FROM turn") == [(1,)]


def test_a_kept_request_is_never_ingested_twice_even_if_it_is_still_kept(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(retain_inputs=True)
    scripted.script("judge", verdict("fail", "policy"))
    _rows(scripted)
    with refused(422, "judge_refused"):
        facts(judging, ctx, TEXT)
    (entry,) = judgements(judging, ctx)
    override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    sql("UPDATE retained_input SET consumed_at = NULL")  # as if consuming it had been lost
    again = override_judgement(judging, ctx, entry["id"], "pass", replay=True)
    assert again["replay"] == "not_retained"
    assert sql("SELECT count(*) FROM turn") == [(1,)]


# item 17: a dry run's limit counts only the entries it tests


def test_a_dry_run_limit_counts_only_the_entries_it_tests(judging, judged, scripted) -> None:
    ctx = judged()
    for _ in range(2):
        scripted.script("judge", verdict("fail", "policy"))
        with refused(422):
            facts(judging, ctx, "BLUEBIRD ships soon", infer="none")
    # Newer than both refusals: a write whose every row is warned (row entries, skipped).
    scripted.script("judge", verdict("pass"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: ("warn", "policy") for i in json.loads(r.user)})
    )
    facts(judging, ctx, "I'm Alice. I work at Acme.")
    rows = [j for j in judgements(judging, ctx, stage="row") if j["verdict"] == "warn"]
    assert len(rows) >= 2
    scripted.respond_with("judge", verdict("pass"))
    body = dry_run(judging, ctx, "Code names are not sensitive.", limit=2)
    assert body["tested"] == 2
    assert [e["original"]["verdict"] for e in body["entries"] if "skipped" not in e] == [
        "fail",
        "fail",
    ]
    skipped = {e["id"] for e in body["entries"] if e.get("skipped") == "row_gate"}
    assert skipped == {j["id"] for j in rows} and body["skipped"] == len(skipped)
    one = dry_run(judging, ctx, "Code names are not sensitive.", limit=1)
    assert one["tested"] == 1


# item 17: a refused document's entry names the document


def test_a_refused_documents_review_log_entry_names_the_document(
    judging, judged, scripted, sql
) -> None:
    from memwarden.documents.processing import process_document
    from memwarden.documents.service import upload

    ctx = judged()
    scripted.respond_with("judge", verdict("fail", "policy"))
    judging.run(
        upload(
            judging.services,
            ctx.caller,
            ctx.id,
            filename="notes.txt",
            declared_type="text/plain",
            data=b"BLUEBIRD ships soon.",
            scope=None,
            visibility="shared",
        )
    )
    ((doc_id,),) = sql("SELECT id FROM document")
    assert judging.run(process_document(judging.services, ctx.id, doc_id)) == "failed"
    assert sql("SELECT failure_code FROM document") == [("judge_fail",)]
    (entry,) = judgements(judging, ctx)
    assert entry["source"] == "document" and entry["verdict"] == "fail"
    assert entry["document_id"] == str(doc_id)


# item 16: the row judge checks the budget before each batch of rows


def test_the_row_judge_checks_the_budget_before_each_batch_and_books_what_it_spent(
    gates, judged, scripted, db_url
) -> None:
    from memwarden.errors import BudgetExhausted
    from memwarden.gatekeeper import RowInput
    from tests.integration.judge.helpers import usage_rows
    from tests.service.judge.gating import gate_request

    budget = {"token_budget": {"limit": 10}}
    ctx = judged(patch=budget)
    rows = [
        RowInput(f"e{n}", "entity", {"name": f"Person {n}"}, (f"Person {n}",)) for n in range(201)
    ]
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    request = gate_request(ctx, "", config=budget)
    with pytest.raises(BudgetExhausted):
        gates(lambda svc: svc.gatekeeper.row_gate(request, rows))
    assert len(scripted.requests_for("row_judge")) == 1  # the second batch is not sent
    assert usage_rows(db_url, ctx["id"]) == [("judge", "judge-model", 1, 11, 7)]
