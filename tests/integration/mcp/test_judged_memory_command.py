"""The memory_command tool passes the ingest judge as POST /memory/commands does: a
credential is a tool error with its reason code (never the content), a held note says so."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import SCOPE, error, ok

TOKEN = "ghp_" + "Qa1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pm0Nb1Vc2"
EMAIL = "olga.petrova@example.com"


@pytest.fixture
def judged(admin: httpx.Client, ctx: dict[str, Any]) -> dict[str, Any]:
    patch = {"judge": {"enabled": True, "on_warn": "hold"}}
    assert admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json=patch).status_code == 200
    return ctx


def _create(text: str) -> dict[str, Any]:
    return {
        "scope": dict(SCOPE),
        "command": {"contract_version": 1, "op": "create", "content": text},
    }


def test_a_credential_through_memory_command_is_refused_with_its_reason_and_stores_nothing(
    over_http: Connect, judged: dict[str, Any], sql
) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(judged["key"]) as client:
            refused = error(await client.call_tool("memory_command", _create(f"pw {TOKEN}")))
            held = ok(await client.call_tool("memory_command", _create(f"mail {EMAIL}")))
        return refused, held

    refused, held = run(scenario())
    assert refused["code"] == "judge_refused" and refused["reasons"] == ["credential"]
    assert TOKEN not in str(refused)
    assert held["held"] is True and held["judgement"]["reasons"] == ["personal_data"]
    rows = sql("SELECT serving::text FROM memory_record WHERE context_id = %s", (judged["id"],))
    assert rows == [("held",)]
