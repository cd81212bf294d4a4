"""Memory commands over HTTP pass the ingest judge (detectors alone here, no model): a
credential is a 422 naming its reason code and stores no record, personal data is held
under on_warn=hold and says so, a benign note is written and served."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.integration.review.helpers import SCOPE, command, ok

TOKEN = "ghp_" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc"
EMAIL = "olga.petrova@example.com"


@pytest.fixture
def judged(admin: httpx.Client, ctx: dict[str, Any]) -> dict[str, Any]:
    patch = {"judge": {"enabled": True, "on_warn": "hold"}}
    resp = admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json=patch)
    assert resp.status_code == 200, resp.text
    return ctx


def test_a_credential_command_is_422_with_its_reason_and_no_record_is_stored(
    alice: httpx.Client, judged: dict[str, Any], sql
) -> None:
    resp = command(alice, "create", content=f"deploy token {TOKEN}")
    assert resp.status_code == 422
    err = resp.json()["error"]
    assert err["code"] == "judge_refused" and err["reasons"] == ["credential"]
    assert TOKEN not in resp.text
    assert sql("SELECT count(*) FROM memory_record WHERE context_id = %s", (judged["id"],)) == [
        (0,)
    ]
    assert alice.get("/api/v1/memory/changes").json()["changes"] == []


def test_a_held_command_answers_held_with_its_reasons_and_reads_do_not_serve_it(
    alice: httpx.Client, judged: dict[str, Any]
) -> None:
    out = ok(command(alice, "create", content=f"Olga's mail is {EMAIL}"))
    assert out["held"] is True
    assert out["judgement"]["verdict"] == "warn"
    assert out["judgement"]["reasons"] == ["personal_data"]
    read = {"contract_version": 1, "scope": SCOPE, "record_id": out["record_id"]}
    assert alice.post("/api/v1/memory/read", json=read).status_code == 404
    held = alice.get(f"/api/v1/{judged['id']}/judgements", params={"held": "true"}).json()
    assert [j["id"] for j in held["judgements"]] == [out["judgement"]["judgement_id"]]


def test_a_benign_command_is_written_and_served(
    alice: httpx.Client, judged: dict[str, Any]
) -> None:
    out = ok(command(alice, "create", content="Olga prefers green tea."))
    assert out["held"] is False and out["judgement"]["verdict"] == "pass"
    read = {"contract_version": 1, "scope": SCOPE, "record_id": out["record_id"]}
    record = ok(alice.post("/api/v1/memory/read", json=read))["record"]
    assert record["content"] == {"text": "Olga prefers green tea."}
