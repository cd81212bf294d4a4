"""The judge reviewer tools: the review log, overrides, holds and dry runs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import error, ok

CARD = "4111 1111 1111 1111"
JUDGE_TOOLS = {
    "judgements_list",
    "judgement_show",
    "judgement_override",
    "judgement_approve",
    "judgement_reject",
    "judgements_dry_run",
}


@pytest.fixture
def judged(admin, make_context) -> dict[str, Any]:
    """A Context with the judge on (deterministic detectors only: no model configured)."""
    made = make_context(name="judged", subject="alice")
    resp = admin.patch(f"/api/v1/contexts/{made['id']}/config", json={"judge": {"enabled": True}})
    assert resp.status_code == 200, resp.text
    return made


def test_a_refused_write_is_listed_shown_and_overridden_through_the_tools(
    over_http: Connect, judged: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(judged["key"]) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            refused = error(await client.call_tool("remember", {"text": f"my card is {CARD}"}))
            page = ok(await client.call_tool("judgements_list", {"verdict": "fail"}))
            jid = page["judgements"][0]["id"]
            return {
                "listed": listed,
                "refused": refused,
                "page": page,
                "shown": ok(await client.call_tool("judgement_show", {"judgement_id": jid})),
                "overridden": ok(
                    await client.call_tool(
                        "judgement_override", {"judgement_id": jid, "verdict": "pass"}
                    )
                ),
                "after": ok(await client.call_tool("judgement_show", {"judgement_id": jid})),
                "approve": error(
                    await client.call_tool("judgement_approve", {"judgement_id": jid})
                ),
                "reject": error(await client.call_tool("judgement_reject", {"judgement_id": jid})),
            }

    out = run(scenario())
    assert out["listed"] >= JUDGE_TOOLS
    assert out["refused"]["code"] == "judge_refused" and out["refused"]["status"] == 422
    assert "payment_card" in out["refused"]["reasons"]
    assert len(out["page"]["judgements"]) == 1 and out["page"]["next_cursor"] is None
    assert out["shown"] == out["page"]["judgements"][0] and out["shown"]["verdict"] == "fail"
    assert out["after"]["override"]["verdict"] == "pass"
    assert out["after"]["override"]["by"] == "alice"
    for refused_hold in (out["approve"], out["reject"]):
        assert refused_hold["code"] == "not_held" and refused_hold["status"] == 409


def test_a_dry_run_changes_nothing_and_reports_per_entry(
    over_http: Connect, judged: dict[str, Any]
) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with over_http(judged["key"]) as client:
            error(await client.call_tool("remember", {"text": f"card {CARD}"}))
            before = ok(await client.call_tool("judgements_list", {}))
            dry = ok(
                await client.call_tool(
                    "judgements_dry_run", {"addendum": "Card numbers are fine.", "limit": 5}
                )
            )
            after = ok(await client.call_tool("judgements_list", {}))
            return before, dry, after

    before, dry, after = run(scenario())
    assert before == after
    assert dry["tested"] == 1 and dry["changed"] == 0 and dry["matrix"] == {"fail": {"fail": 1}}
    assert dry["model"] is None and "no judge model" in dry["note"]


def test_the_review_log_needs_grant_manage(
    over_http: Connect, judged: dict[str, Any], make_key
) -> None:
    reviewer = make_key(judged["id"], ["memory_read", "memory_review"], subject="rita")

    async def scenario() -> dict[str, Any]:
        async with over_http(reviewer) as client:
            return error(await client.call_tool("judgements_list", {}))

    err = run(scenario())
    assert err["status"] == 403 and err["kind"] == "forbidden"


def test_an_unknown_judgement_is_not_found(over_http: Connect, judged: dict[str, Any]) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(judged["key"]) as client:
            missing = "01a22c1c-d345-739e-9cb1-0e0f8de1a9fb"
            return error(await client.call_tool("judgement_show", {"judgement_id": missing}))

    err = run(scenario())
    assert err["code"] == "not_found" and err["status"] == 404
