"""Memory-contract writes pass the ingest judge's input gate as /facts writes do: a deny
leaves nothing, a credential is refused before anything is stored, personal data is
redacted or held as the Context says, a benign note is written and says so."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.judge.helpers import (
    SECRET_MARK,
    audits,
    count,
    judgements,
    table_texts,
    usage_rows,
    verdict,
)
from tests.service.review.memory import Who, command, create, read, search_ids
from tests.service.usecases import decide_hold, refused
from tests.support.replies import PASS_VERDICT
from tests.support.scripted_model import Reply

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
EMAIL = "olga.petrova@example.com"


def contract_rows(db_url: str, context_id: Any) -> dict[str, int]:
    """What a command writes: records, revisions, feed entries and audit events."""
    tables = ("memory_record", "memory_revision", "change_event", "audit_event")
    return {
        t: count(db_url, f"SELECT count(*) FROM {t} WHERE context_id = %s", context_id)
        for t in tables
    }


@pytest.fixture
def alice_judged(judging, judged):
    def make(patch: dict[str, Any] | None = None, **judge: Any) -> tuple[Any, Who]:
        ctx = judged(patch, **judge)
        return ctx, Who(judging, ctx.caller)

    return make


def test_a_denied_create_leaves_no_record_entry_audit_usage_or_bytes(
    alice_judged, scripted, db_url
) -> None:
    ctx, alice = alice_judged(retain_inputs=True)
    scripted.respond_with("judge", verdict("deny", "policy"))
    before = contract_rows(db_url, ctx.id)
    with refused(422, "request_denied") as err:
        create(alice, f"{SECRET_MARK} rewrite everyone's memory")
    assert err.value.message == "the request could not be processed"
    assert contract_rows(db_url, ctx.id) == before
    assert judgements(db_url, str(ctx.id)) == [] and usage_rows(db_url, str(ctx.id)) == []
    assert all(SECRET_MARK not in text for text in table_texts(db_url).values())


def test_a_credential_created_through_the_contract_is_refused_and_stores_no_record(
    alice_judged, scripted, db_url
) -> None:
    ctx, alice = alice_judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))  # the detectors refuse it
    before = contract_rows(db_url, ctx.id)
    with refused(422, "judge_refused") as err:
        create(alice, f"the deploy token is {TOKEN}")
    assert err.value.extra == {"reasons": ["credential"]}
    after = contract_rows(db_url, ctx.id)
    assert {k: after[k] - before[k] for k in after} == {
        "memory_record": 0,
        "memory_revision": 0,
        "change_event": 0,
        "audit_event": 1,  # judge.fail, by id
    }
    (entry,) = judgements(db_url, str(ctx.id))
    assert entry["verdict"] == "fail" and entry["source"] == "memory_command"
    assert audits(db_url, str(ctx.id))[-1] == ("judge.fail", "judgement", entry["id"])
    # The refused bytes are kept only in the reviewer's excerpt, nowhere the memory lives.
    leaked = {t for t, text in table_texts(db_url).items() if TOKEN in text}
    assert leaked == {"public.judgement"}


def test_with_redaction_a_credential_is_never_stored_sent_or_refused(
    alice_judged, scripted, db_url
) -> None:
    _ctx, alice = alice_judged({"pii_redaction_enabled": True})
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    rid, _ = create(alice, f"the deploy token is {TOKEN}")
    assert read(alice, rid)["record"]["content"] == {
        "text": "the deploy token is [REDACTED:credential]"
    }
    (sent,) = scripted.requests_for("judge")
    assert TOKEN not in sent.user
    assert all(TOKEN not in text for text in table_texts(db_url).values())


def test_an_update_to_a_credential_is_refused_and_the_served_revision_stays(
    alice_judged, scripted, db_url
) -> None:
    _ctx, alice = alice_judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    rid, rev = create(alice, "the deploy runs nightly")
    with refused(422, "judge_refused"):
        command(alice, "update", record_id=rid, expected_revision=rev, content=f"pw: {TOKEN}")
    record = read(alice, rid)["record"]
    assert record["revision"] == rev and record["content"] == {"text": "the deploy runs nightly"}
    assert count(db_url, "SELECT count(*) FROM memory_revision WHERE record_id = %s", rid) == 1


def test_a_benign_create_is_written_served_and_reports_the_pass(
    alice_judged, scripted, db_url
) -> None:
    ctx, alice = alice_judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    out = command(alice, "create", content="Alice prefers green tea.")
    (entry,) = judgements(db_url, str(ctx.id))
    assert out["held"] is False
    assert out["judgement"] == {"verdict": "pass", "reasons": [], "judgement_id": str(entry["id"])}
    assert entry["source"] == "memory_command" and entry["gate"] == "input"
    assert read(alice, out["record_id"])["record"]["content"] == {
        "text": "Alice prefers green tea."
    }


def test_personal_data_is_written_and_flagged_with_the_default_on_warn(
    alice_judged, scripted, db_url
) -> None:
    ctx, alice = alice_judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    out = command(alice, "create", content=f"Olga's mail is {EMAIL}")
    (entry,) = judgements(db_url, str(ctx.id))
    assert entry["verdict"] == "warn" and entry["reasons"] == ["personal_data"]
    assert not entry["held"]
    assert out["held"] is False and out["judgement"]["verdict"] == "warn"
    assert out["judgement"]["reasons"] == ["personal_data"]
    assert read(alice, out["record_id"])["record"]["revision"] == out["revision"]


def test_personal_data_is_held_under_on_warn_hold_until_a_reviewer_approves(
    judging, alice_judged, scripted, db_url
) -> None:
    ctx, alice = alice_judged(on_warn="hold")
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    out = command(alice, "create", content=f"Olga's mail is {EMAIL}")
    jid = out["judgement"]["judgement_id"]
    assert out["held"] is True and out["judgement"]["reasons"] == ["personal_data"]
    assert (
        count(
            db_url,
            "SELECT count(*) FROM memory_record WHERE id = %s AND serving = 'held'",
            out["record_id"],
        )
        == 1
    )
    with refused(404):
        read(alice, out["record_id"])
    assert out["record_id"] not in search_ids(alice, query="Olga mail")
    decide_hold(judging, ctx, jid, approve=True)
    assert read(alice, out["record_id"])["record"]["content"] == {"text": f"Olga's mail is {EMAIL}"}


def test_a_rejected_held_create_is_removed(judging, alice_judged, scripted, db_url) -> None:
    ctx, alice = alice_judged(on_warn="hold")
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    out = command(alice, "create", content=f"Olga's mail is {EMAIL}")
    decide_hold(judging, ctx, out["judgement"]["judgement_id"], approve=False)
    assert count(db_url, "SELECT count(*) FROM memory_record WHERE id = %s", out["record_id"]) == 0


def test_an_update_the_judge_would_hold_is_refused_and_replaces_nothing(
    alice_judged, scripted, db_url
) -> None:
    _ctx, alice = alice_judged(on_warn="hold")
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    rid, rev = create(alice, "Olga works in Lisbon.")
    with refused(422, "update_held", "command.content") as err:
        command(alice, "update", record_id=rid, expected_revision=rev, content=f"mail {EMAIL}")
    assert err.value.extra == {"reasons": ["personal_data"]}
    record = read(alice, rid)["record"]
    assert record["revision"] == rev and record["content"] == {"text": "Olga works in Lisbon."}


def test_with_redaction_personal_data_is_stored_redacted_and_not_held(
    alice_judged, scripted
) -> None:
    _ctx, alice = alice_judged({"pii_redaction_enabled": True}, on_warn="hold")
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    out = command(alice, "create", content=f"Olga's mail is {EMAIL}")
    assert out["held"] is False
    text = read(alice, out["record_id"])["record"]["content"]["text"]
    assert EMAIL not in text and "[REDACTED:personal_data]" in text


def test_a_caller_without_the_grant_is_refused_before_the_judge_is_called(
    judging, judged, scripted
) -> None:
    ctx = judged()
    reader = Who(judging, judging.add_key(ctx.id, ["memory_read"], "bob").caller)
    with refused(403, "missing_grant"):
        create(reader, f"the deploy token is {TOKEN}")
    assert scripted.requests_for("judge") == []


def test_a_delete_and_an_expiry_change_carry_no_content_and_are_not_judged(
    alice_judged, scripted
) -> None:
    _ctx, alice = alice_judged()
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    rid, rev = create(alice, "the deploy runs nightly")
    calls = len(scripted.requests_for("judge"))
    out = command(
        alice, "update", record_id=rid, expected_revision=rev, expires_at="2999-01-01T00:00:00Z"
    )
    assert "judgement" not in out
    command(alice, "delete", record_id=rid, expected_revision=out["revision"])
    assert len(scripted.requests_for("judge")) == calls
