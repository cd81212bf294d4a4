"""The input gate on a real database with the real OpenAI client against a scripted model."""

from __future__ import annotations

import uuid

import pytest

from memwarden.errors import BudgetExhausted, JudgeDenied, JudgeRefused, JudgeUnavailable
from memwarden.gatekeeper import InputVerdict
from tests.integration.judge.helpers import (
    CARD,
    PASS,
    SECRET_MARK,
    audits,
    count,
    judgements,
    table_texts,
    usage_rows,
    verdict,
)
from tests.service.judge.gating import gate_request
from tests.support.hostile_replies import HOSTILE_REPLIES
from tests.support.scripted_model import Reply


def gate(gates, request) -> InputVerdict:
    return gates(lambda svc: svc.gatekeeper.input_gate(request))


def record(gates, request, pending) -> list[uuid.UUID]:
    async def go(svc):
        async with svc.db.transaction() as conn:
            return await svc.gatekeeper.record(conn, request, pending)

    return gates(go)


def test_a_context_with_the_judge_off_judges_nothing(gates, judged, scripted) -> None:
    ctx = judged()
    req = gate_request(ctx, "hello", config={"judge": {"enabled": False}})
    assert gate(gates, req) == InputVerdict(verdict=None)
    req = gate_request(ctx, "hello", config={"judge": {"input": False}})
    assert gate(gates, req).verdict is None
    assert scripted.requests_for("judge") == []


def test_a_pass_is_recorded_when_record_pass_is_on(gates, judged, scripted, db_url) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS))
    req = gate_request(ctx, "Alice prefers tea.")
    out = gate(gates, req)
    assert out.verdict == "pass" and out.pending is not None and not out.hold
    (jid,) = record(gates, req, [out.pending])
    (row,) = judgements(db_url, ctx["id"])
    assert row["id"] == jid and row["verdict"] == "pass" and row["gate"] == "input"
    assert row["excerpt"] == "Alice prefers tea." and row["source"] == "facts"
    assert row["scope_path"] == "project/p1"


def test_record_pass_off_keeps_only_flagged_content(gates, judged, scripted) -> None:
    ctx = judged(record_pass=False)
    scripted.respond_with("judge", Reply.json(PASS))
    out = gate(gates, gate_request(ctx, "tea", config={"judge": {"record_pass": False}}))
    assert out.verdict == "pass" and out.pending is None


def test_a_warn_writes_and_flags_with_the_reason_codes(gates, judged, scripted) -> None:
    ctx = judged()
    scripted.script("judge", verdict("warn", "sensitive_inference"))
    out = gate(gates, gate_request(ctx, "Bob mentioned his diagnosis."))
    assert out.verdict == "warn" and out.reasons == ("sensitive_inference",)
    assert not out.hold and out.pending is not None and out.pending.verdict == "warn"


@pytest.mark.parametrize(
    ("source", "held"),
    [("facts", True), ("facts_batch", True), ("chat", False), ("document", False)],
)
def test_on_warn_hold_holds_facts_writes_but_only_flags_chat_and_documents(
    gates, judged, scripted, source, held
) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    out = gate(gates, gate_request(ctx, "x", source=source, config={"judge": {"on_warn": "hold"}}))
    assert out.verdict == "warn" and out.hold is held
    assert out.pending is not None and out.pending.held is held


def test_a_fail_is_refused_recorded_audited_and_counted(gates, judged, scripted, db_url) -> None:
    ctx = judged()
    scripted.script("judge", verdict("fail", "credential", "Leaked the admin password!"))
    with pytest.raises(JudgeRefused) as refused:
        gate(gates, gate_request(ctx, "the admin password is hunter2, keep it"))
    assert refused.value.extra == {"reasons": ["credential", "policy"]}
    (row,) = judgements(db_url, ctx["id"])
    assert row["verdict"] == "fail" and row["reasons"] == ["credential", "policy"]
    assert "hunter2" in row["excerpt"]
    assert audits(db_url, ctx["id"])[-1] == ("judge.fail", "judgement", row["id"])
    assert usage_rows(db_url, ctx["id"]) == [("judge", "judge-model", 1, 11, 7)]


def test_a_detector_finding_fails_even_when_the_model_passes(gates, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS))
    with pytest.raises(JudgeRefused) as refused:
        gate(gates, gate_request(ctx, f"my card is {CARD}"))
    assert refused.value.extra["reasons"] == ["payment_card"]


def test_detectors_judge_alone_when_no_model_is_configured(gates, judged, scripted) -> None:
    ctx = judged()

    async def go(svc):
        svc.models.judge = None
        return await svc.gatekeeper.input_gate(gate_request(ctx, "mail me: bob@example.com"))

    out = gates(go)
    assert out.verdict == "warn" and out.reasons == ("personal_data",)
    assert scripted.requests == []


def test_with_redaction_a_card_number_is_never_sent_stored_or_refused(
    gates, judged, scripted, db_url
) -> None:
    ctx = judged(patch={"pii_redaction_enabled": True})
    scripted.respond_with("judge", Reply.json(PASS))
    req = gate_request(ctx, f"card {CARD} on file", config={"pii_redaction_enabled": True})
    out = gate(gates, req)
    assert out.verdict == "pass"
    (sent,) = scripted.requests_for("judge")
    assert CARD not in sent.user and "[REDACTED:payment_card]" in sent.user
    assert out.pending is not None
    record(gates, req, [out.pending])
    assert all(CARD not in text for text in table_texts(db_url).values())


def test_a_deny_raises_and_leaves_no_entry_audit_usage_or_bytes(
    gates, judged, scripted, db_url
) -> None:
    ctx = judged(retain_inputs=True)
    before = count(db_url, "SELECT count(*) FROM audit_event")
    scripted.script("judge", verdict("deny", "policy"))
    req = gate_request(
        ctx,
        f"poison {SECRET_MARK}",
        config={"judge": {"retain_inputs": True}},
        payload={"content": f"poison {SECRET_MARK}"},
    )
    with pytest.raises(JudgeDenied) as denied:
        gate(gates, req)
    assert denied.value.message == "the request could not be processed"
    assert judgements(db_url, ctx["id"]) == []
    assert usage_rows(db_url, ctx["id"]) == []
    assert count(db_url, "SELECT count(*) FROM audit_event") == before
    assert count(db_url, "SELECT count(*) FROM retained_input") == 0
    assert all(SECRET_MARK not in text for text in table_texts(db_url).values())


def test_the_addendum_goes_into_the_system_prompt_never_the_user_message(
    gates, judged, scripted
) -> None:
    addendum = "Account numbers like ACC-123456 are personal data."
    ctx = judged(patch={"prompt_addendums": {"judge": addendum}})
    scripted.respond_with("judge", Reply.json(PASS))
    gate(gates, gate_request(ctx, "ACC-000001", config={"prompt_addendums": {"judge": addendum}}))
    (sent,) = scripted.requests_for("judge")
    assert addendum in sent.system and "Context addendum" in sent.system
    assert addendum not in sent.user and sent.user == "<<<TEXT\nACC-000001\nTEXT>>>"


def test_long_content_is_judged_in_16000_character_windows_and_the_worst_applies(
    gates, judged, scripted
) -> None:
    ctx = judged()
    text = "".join(ch * 16_000 for ch in "abc")

    def by_window(request):
        return verdict("warn", "policy") if "bbbb" in request.user else Reply.json(PASS)

    scripted.respond_with("judge", by_window)
    out = gate(gates, gate_request(ctx, text))
    sent = scripted.requests_for("judge")
    assert len(sent) == 3
    assert sorted(len(r.user) for r in sent) == [16_000 + 16] * 3
    assert out.verdict == "warn" and out.pending is not None
    assert set(out.pending.excerpt) == {"b"}  # the excerpt comes from the worst window


def test_eight_windows_are_judged_and_a_ninth_is_a_judge_error(gates, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS))
    assert gate(gates, gate_request(ctx, "a" * 16_000 * 8)).verdict == "pass"
    assert len(scripted.requests_for("judge")) == 8
    with pytest.raises(JudgeUnavailable):
        gate(gates, gate_request(ctx, "a" * (16_000 * 8 + 1)))
    assert len(scripted.requests_for("judge")) == 8  # never judged on its first part only
    allow = {"judge": {"on_error": "allow"}}
    assert gate(gates, gate_request(ctx, "a" * (16_000 * 8 + 1), config=allow)).verdict is None


@pytest.mark.parametrize(
    "reply",
    [
        Reply.error(500),
        Reply.json(PASS).after(3.0),
        Reply.text("not json at all"),
        Reply.json({"verdict": "maybe"}),
        *HOSTILE_REPLIES.values(),
    ],
    ids=["fails", "times_out", "unreadable", "unknown_verdict", *HOSTILE_REPLIES],
)
def test_on_error_fail_refuses_and_allow_lets_the_write_through(
    gates, judged, scripted, reply
) -> None:
    ctx = judged()
    scripted.respond_with("judge", reply)
    with pytest.raises(JudgeUnavailable) as unavailable:
        gate(gates, gate_request(ctx, "hello"))
    assert unavailable.value.extra == {"reasons": ["judge_unavailable"]}
    out = gate(gates, gate_request(ctx, "hello", config={"judge": {"on_error": "allow"}}))
    assert out.verdict is None and out.pending is None


def test_under_on_error_allow_detector_findings_still_count(gates, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.error(500))
    with pytest.raises(JudgeRefused):
        gate(gates, gate_request(ctx, f"{CARD}", config={"judge": {"on_error": "allow"}}))


def test_usage_is_booked_under_the_judge_stage_per_window(gates, judged, scripted, db_url) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS, prompt_tokens=100, completion_tokens=5))
    gate(gates, gate_request(ctx, "x" * 20_000))
    assert usage_rows(db_url, ctx["id"]) == [("judge", "judge-model", 2, 200, 10)]


def test_a_spent_token_budget_refuses_the_judge_call(gates, judged, scripted, sql) -> None:
    budget = {"token_budget": {"limit": 50, "period": "day"}}
    ctx = judged(patch=budget)
    scripted.respond_with("judge", Reply.json(PASS, prompt_tokens=40, completion_tokens=20))
    gate(gates, gate_request(ctx, "first", config=budget))
    with pytest.raises(BudgetExhausted):
        gate(gates, gate_request(ctx, "second", config=budget))
    assert len(scripted.requests_for("judge")) == 1


def test_background_sources_use_the_contexts_judge_model(gates, judged, scripted) -> None:
    choice = {"models": {"judge": {"provider": "openai", "model": "context-judge"}}}
    ctx = judged(patch=choice)
    scripted.respond_with("*", Reply.json(PASS))
    gate(gates, gate_request(ctx, "doc text", source="document", config=choice))
    gate(gates, gate_request(ctx, "fact text", source="facts", config=choice))
    models = [r.model for r in scripted.requests]
    assert models == ["context-judge", "judge-model"]


def test_a_fail_on_facts_keeps_the_redacted_request_when_retain_inputs_is_on(
    gates, judged, scripted, db_url, sql
) -> None:
    cfg = {"judge": {"retain_inputs": True, "retention_days": 7}, "pii_redaction_enabled": True}
    ctx = judged(patch={k: v for k, v in cfg.items() if k != "judge"}, **cfg["judge"])
    scripted.respond_with("judge", verdict("fail", "policy"))
    payload = {"content": f"card {CARD} and a plan"}
    with pytest.raises(JudgeRefused):
        gate(gates, gate_request(ctx, payload["content"], config=cfg, payload=payload))
    with pytest.raises(JudgeRefused):
        gate(gates, gate_request(ctx, "chat", config=cfg, payload=payload, source="chat"))
    kept = sql(
        "SELECT route, payload::text, expires_at > now() + interval '6 days' FROM retained_input"
    )
    assert len(kept) == 1
    route, text, expires_later = kept[0]
    assert route == "facts" and CARD not in text and "[REDACTED:payment_card]" in text
    assert expires_later


def test_a_warn_is_recorded_with_its_request_kept_in_the_writes_transaction(
    gates, judged, scripted, sql
) -> None:
    """A warn's request is kept as a fail's is (retain_inputs covers warn and fail), with
    its entry, in the write's transaction: the gate itself keeps nothing."""
    cfg = {"judge": {"retain_inputs": True}}
    ctx = judged(retain_inputs=True)
    scripted.respond_with("judge", verdict("warn", "policy"))
    req = gate_request(ctx, "hmm", config=cfg, payload={"content": "hmm"})
    out = gate(gates, req)
    assert out.pending is not None
    assert sql("SELECT count(*) FROM retained_input") == [(0,)]
    (jid,) = record(gates, req, [out.pending])
    assert sql("SELECT id FROM judgement") == [(jid,)]
    assert sql("SELECT judgement_id FROM retained_input") == [(jid,)]


def test_content_past_eight_windows_is_a_judge_error_with_detectors_only(
    services_with, judged, scripted
) -> None:
    """No judge model: the detectors see everything, but the spec's window limit still holds."""
    ctx = judged()
    detectors_only = services_with()  # no MEMWARDEN_MODEL_JUDGE

    def judge(chars: int, config: dict) -> InputVerdict:
        request = gate_request(ctx, "a" * chars, config=config)
        return detectors_only.run(detectors_only.services.gatekeeper.input_gate(request))

    assert judge(16_000 * 8, {}).verdict == "pass"
    with pytest.raises(JudgeUnavailable):
        judge(16_000 * 8 + 1, {})
    assert judge(16_000 * 8 + 1, {"judge": {"on_error": "allow"}}).verdict is None
    assert scripted.requests_for("judge") == []
