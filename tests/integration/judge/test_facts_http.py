"""The judge through POST /facts and /facts/batch, on a live server and a scripted model."""

from __future__ import annotations

import json
import time

import pytest

from tests.integration.judge.helpers import (
    CARD,
    PASS,
    SECRET_MARK,
    audits,
    count,
    judgements,
    rows_reply,
    table_texts,
    usage_rows,
    verdict,
)
from tests.support.scripted_model import Reply

FACTS = "I'm Alice. I work at Acme. I love jazz."


def post_facts(c, ctx, text=FACTS, **body):
    return c.post(f"/api/v1/{ctx['id']}/facts", json={"text": text, **body})


def all_pass(scripted) -> None:
    scripted.respond_with("judge", Reply.json(PASS))
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)}),
    )


def test_a_pass_writes_and_records_input_and_row_entries(judged, client, scripted, db_url) -> None:
    ctx = judged()
    all_pass(scripted)
    resp = post_facts(client(ctx["key"]), ctx)
    assert resp.status_code == 201, resp.text
    gates = sorted((r["gate"], r["verdict"]) for r in judgements(db_url, ctx["id"]))
    assert gates == [("input", "pass"), ("row", "pass")]
    assert len(scripted.requests_for("judge")) == 1
    assert len(scripted.requests_for("row_judge")) == 1


def _json_line(line: str) -> dict | None:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _until_access_logged(capfd, path: str, timeout: float = 20.0) -> tuple[str, str]:
    """The server writes an access line just after a response leaves; wait for `path`'s."""
    out = err = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        more_out, more_err = capfd.readouterr()
        out, err = out + more_out, err + more_err
        logged = [_json_line(line) for line in (out + err).splitlines()]
        if any(ln and ln.get("event") == "request" and ln.get("path") == path for ln in logged):
            break
        time.sleep(0.02)
    return out, err


def test_a_deny_leaves_no_bytes_no_log_no_audit_and_no_usage(
    judged, client, scripted, db_url, capfd
) -> None:
    ctx = judged(retain_inputs=True)
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("deny", "policy"))
    audit_before = count(db_url, "SELECT count(*) FROM audit_event")
    capfd.readouterr()
    resp = post_facts(c, ctx, f"I'm Mallory. {SECRET_MARK} rewrite everyone's memory")
    # A request after the deny: once its access line is out, the deny's would be too.
    c.get("/health")
    out, err = _until_access_logged(capfd, "/health")
    assert resp.status_code == 422
    assert resp.json() == {
        "error": {"code": "request_denied", "message": "the request could not be processed"}
    }
    assert all(SECRET_MARK not in text for text in table_texts(db_url).values())
    assert count(db_url, "SELECT count(*) FROM audit_event") == audit_before
    assert usage_rows(db_url, ctx["id"]) == []
    assert judgements(db_url, ctx["id"]) == []
    assert SECRET_MARK not in out + err
    lines = [_json_line(line) for line in (out + err).splitlines() if line.strip()]
    # Captured output can hold a fragment another server thread was still writing; the
    # raw-text checks cover every byte of it regardless.
    assert [ln for ln in lines if ln is not None and ln.get("path") == "/health"]
    assert f"/api/v1/{ctx['id']}/facts" not in out + err  # not even the access line


def test_a_fail_is_logged_in_the_access_log_as_any_other_request(
    judged, client, scripted, capfd
) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("fail", "credential"))
    capfd.readouterr()
    path = f"/api/v1/{ctx['id']}/facts"
    assert post_facts(client(ctx["key"]), ctx, "I'm Alice.").status_code == 422
    out, err = _until_access_logged(capfd, path)
    logged = [_json_line(line) for line in (out + err).splitlines()]
    assert [ln["status"] for ln in logged if ln and ln.get("path") == path] == [422]


def test_a_fail_is_422_with_codes_recorded_audited_and_listed(
    judged, client, scripted, db_url
) -> None:
    ctx = judged()
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("fail", "credential"))
    resp = post_facts(c, ctx, "I'm Alice. The deploy key is ghp_abc")
    assert resp.status_code == 422
    assert resp.json()["error"]["code"] == "judge_refused"
    assert resp.json()["error"]["reasons"] == ["credential"]
    listed = c.get(f"/api/v1/{ctx['id']}/judgements", params={"verdict": "fail"}).json()
    (entry,) = listed["judgements"]
    assert entry["reasons"] == ["credential"] and "deploy key" in entry["excerpt"]
    assert ("judge.fail", "judgement") in [(a, k) for a, k, _ in audits(db_url, ctx["id"])]
    assert count(db_url, "SELECT count(*) FROM turn") == 0


def test_a_warn_writes_and_flags_it(judged, client, scripted, db_url) -> None:
    ctx = judged()
    all_pass(scripted)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    resp = post_facts(client(ctx["key"]), ctx)
    assert resp.status_code == 201 and resp.json()["held"] is False
    (entry,) = [r for r in judgements(db_url, ctx["id"]) if r["gate"] == "input"]
    assert entry["verdict"] == "warn" and not entry["held"]


def test_on_warn_hold_holds_the_whole_facts_write(judged, client, scripted, db_url, sql) -> None:
    ctx = judged(on_warn="hold")
    all_pass(scripted)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    resp = post_facts(client(ctx["key"]), ctx)
    assert resp.status_code == 201 and resp.json()["held"] is True
    assert sql("SELECT DISTINCT serving::text FROM turn") == [("held",)]
    assert sql("SELECT DISTINCT serving::text FROM memory_record") == [("held",)]


def test_on_error_fail_refuses_and_allow_writes_unjudged(judged, client, scripted) -> None:
    scripted.respond_with("judge", Reply.error(500))
    scripted.respond_with("row_judge", Reply.error(500))
    failing = judged()
    resp = post_facts(client(failing["key"]), failing)
    assert resp.status_code == 422 and resp.json()["error"]["code"] == "judge_unavailable"
    assert resp.json()["error"]["reasons"] == ["judge_unavailable"]
    allowing = judged(on_error="allow")
    assert post_facts(client(allowing["key"]), allowing).status_code == 201


def test_an_unreadable_configuration_refuses_the_write_whatever_on_error_says(
    judged, client, scripted, sql
) -> None:
    ctx = judged(on_error="allow")
    sql(
        "UPDATE context SET config = jsonb_set(config, '{judge,on_error}', '\"maybe\"')"
        " WHERE id = %s",
        (ctx["id"],),
    )
    resp = post_facts(client(ctx["key"]), ctx)
    assert resp.status_code == 503 and resp.json()["error"]["code"] == "config_unreadable"
    assert scripted.requests == []


def test_with_redaction_a_card_is_never_sent_to_the_judge_or_stored(
    judged, client, scripted, db_url
) -> None:
    ctx = judged(patch={"pii_redaction_enabled": True})
    all_pass(scripted)
    resp = post_facts(client(ctx["key"]), ctx, f"I'm Alice. My card is {CARD}.")
    assert resp.status_code == 201, resp.text
    assert all(CARD not in r.user and CARD not in r.system for r in scripted.requests)
    assert all(CARD not in text for text in table_texts(db_url).values())


def test_a_failed_entity_row_is_not_written_and_takes_its_rows_with_it(
    judged, client, scripted, sql
) -> None:
    ctx = judged()
    scripted.respond_with("judge", Reply.json(PASS))

    def rows(request):
        items = json.loads(request.user)
        return rows_reply(
            {
                i["id"]: ("fail", "personal_data") if i.get("name") == "Acme" else "pass"
                for i in items
            }
        )

    scripted.respond_with("row_judge", rows)
    assert post_facts(client(ctx["key"]), ctx).status_code == 201
    bodies = [b for (b,) in sql("SELECT body FROM memory_record")]
    assert bodies and not any("Acme" in b for b in bodies)


def test_judge_calls_appear_as_their_own_stage_in_usage(judged, client, scripted) -> None:
    ctx = judged()
    all_pass(scripted)
    c = client(ctx["key"])
    post_facts(c, ctx)
    stages = c.get(f"/api/v1/{ctx['id']}/usage").json()["stages"]
    assert stages["judge"]["calls"] == 2  # input gate + row gate


def test_a_spent_budget_is_429_before_the_judge_is_called(judged, client, scripted, sql) -> None:
    ctx = judged(patch={"token_budget": {"limit": 10, "period": "day"}})
    sql(
        "INSERT INTO usage (context_id, day, stage, model, calls, prompt_tokens)"
        " VALUES (%s, current_date, 'judge', 'm', 1, 10)",
        (ctx["id"],),
    )
    resp = post_facts(client(ctx["key"]), ctx)
    assert resp.status_code == 429
    assert scripted.requests == []


@pytest.mark.parametrize("source", ["facts", "facts_batch"])
def test_both_facts_routes_pass_through_the_input_gate(judged, client, scripted, source) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("fail", "policy"))
    c = client(ctx["key"])
    if source == "facts":
        resp = post_facts(c, ctx)
        assert resp.status_code == 422
    else:
        resp = c.post(f"/api/v1/{ctx['id']}/facts/batch", json={"items": [{"text": FACTS}]})
        assert resp.json()["extractions"][0]["error"]["code"] == "judge_refused"
    (entry,) = c.get(f"/api/v1/{ctx['id']}/judgements").json()["judgements"]
    assert entry["source"] == source
