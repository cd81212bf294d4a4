"""The row gate: one call per reconciliation, drops, warns, holds, detectors on rows."""

from __future__ import annotations

import json

import pytest

from memwarden.errors import JudgeUnavailable
from memwarden.gatekeeper import RowInput, RowVerdicts
from tests.integration.judge.helpers import CARD, judgements, rows_reply, usage_rows
from tests.service.judge.gating import gate_request
from tests.support.scripted_model import Reply

ROWS = [
    RowInput("e1", "entity", {"name": "Alice", "entityType": "person"}, ("Alice",)),
    RowInput("a1", "attribute", {"entity": "Alice", "key": "team", "value": "core"}, ("Alice",)),
    RowInput("e2", "entity", {"name": "Acme", "entityType": "org"}, ("Acme",)),
    RowInput(
        "r1",
        "relation",
        {"subject": "Alice", "label": "works at", "object": "Acme"},
        ("Alice", "Acme"),
    ),
    RowInput("i1", "instruction", {"label": "tone", "description": "be brief"}),
]


def row_gate(gates, request, rows=ROWS) -> RowVerdicts:
    return gates(lambda svc: svc.gatekeeper.row_gate(request, rows))


def record(gates, request, pending):
    async def go(svc):
        async with svc.db.transaction() as conn:
            return await svc.gatekeeper.record(conn, request, pending)

    return gates(go)


def test_all_rows_go_to_the_model_in_one_call_as_a_json_array_with_ids(
    gates, judged, scripted
) -> None:
    ctx = judged()
    scripted.script("row_judge", rows_reply({r.id: "pass" for r in ROWS}))
    out = row_gate(gates, gate_request(ctx, "", source="chat"))
    (sent,) = scripted.requests
    items = json.loads(sent.user)
    assert [i["id"] for i in items] == [r.id for r in ROWS]
    assert items[1]["kind"] == "attribute" and items[1]["value"] == "core"
    assert out.keep == {r.id for r in ROWS} and not out.dropped


def test_rows_off_judges_incoming_content_only(gates, judged, scripted) -> None:
    ctx = judged(rows=False)
    out = row_gate(gates, gate_request(ctx, "", config={"judge": {"rows": False}}))
    assert out.keep == {r.id for r in ROWS} and not out.pending
    assert scripted.requests == []


def test_a_failed_entity_is_dropped_with_every_row_naming_it_and_recorded(
    gates, judged, scripted, db_url
) -> None:
    ctx = judged()
    scripted.script(
        "row_judge",
        rows_reply(
            {
                "e1": ("fail", "personal_data"),
                "a1": "pass",
                "e2": "pass",
                "r1": "pass",
                "i1": ("warn", "policy"),
            }
        ),
    )
    req = gate_request(ctx, "")
    out = row_gate(gates, req)
    assert out.dropped == {"e1", "a1", "r1"}
    assert out.keep == {"e2", "i1"} and out.warned == {"i1": ("policy",)}
    ids = record(gates, req, out.pending)
    rows = judgements(db_url, ctx["id"])
    assert [r["id"] for r in rows] == sorted(ids)
    by_verdict = {r["verdict"]: r for r in rows}
    assert by_verdict["fail"]["row_count"] == 3 and by_verdict["fail"]["gate"] == "row"
    assert by_verdict["warn"]["row_count"] == 1
    assert by_verdict["pass"]["row_count"] == 1  # a whole extraction's passed rows: one entry
    assert usage_rows(db_url, ctx["id"]) == [("judge", "judge-model", 1, 11, 7)]


def test_a_denied_row_is_dropped_and_leaves_no_entry_and_no_usage(
    gates, judged, scripted, db_url
) -> None:
    ctx = judged()
    scripted.script(
        "row_judge",
        rows_reply({"e2": ("deny", "policy"), **{r.id: "pass" for r in ROWS if r.id != "e2"}}),
    )
    req = gate_request(ctx, "")
    out = row_gate(gates, req)
    assert out.dropped == {"e2", "r1"}
    record(gates, req, out.pending)
    assert [r["verdict"] for r in judgements(db_url, ctx["id"])] == ["pass"]
    assert usage_rows(db_url, ctx["id"]) == []


def test_detectors_also_run_on_each_rows_text(gates, judged, scripted) -> None:
    ctx = judged()
    rows = [
        *ROWS,
        RowInput("a2", "attribute", {"entity": "Alice", "key": "card", "value": CARD}, ("Alice",)),
    ]
    scripted.script("row_judge", rows_reply({r.id: "pass" for r in rows}))
    out = row_gate(gates, gate_request(ctx, ""), rows)
    assert out.dropped == {"a2"}


def test_on_warn_hold_holds_warned_facts_of_a_facts_write(gates, judged, scripted) -> None:
    ctx = judged(on_warn="hold")
    warn = ("warn", "personal_data")
    scripted.respond_with(
        "row_judge", rows_reply({"e1": warn, "a1": warn, "e2": "pass", "r1": warn, "i1": warn})
    )
    request = gate_request(ctx, "", config={"judge": {"on_warn": "hold"}})
    out = row_gate(gates, request)
    assert out.held == {"a1", "r1"}
    assert "e1" in out.keep and "e1" not in out.held  # an entity cannot be held
    # A warned instruction cannot be held: in a write that is not held it is written and
    # flagged; in a write the input gate holds it is not stored.
    assert "i1" in out.keep and out.warned["i1"] == ("personal_data",)
    held = row_gate(gates, request.holding(True))
    assert "i1" in held.dropped and "i1" not in held.keep
    chat = row_gate(
        gates, gate_request(ctx, "", source="chat", config={"judge": {"on_warn": "hold"}})
    )
    assert not chat.held and "i1" in chat.keep


@pytest.mark.parametrize(
    "reply",
    [Reply.error(503), rows_reply({"e1": "pass"}), Reply.text("{oops")],
    ids=["fails", "rows_missing", "unreadable"],
)
def test_a_row_judge_error_follows_on_error(gates, judged, scripted, reply) -> None:
    ctx = judged()
    scripted.respond_with("row_judge", reply)
    with pytest.raises(JudgeUnavailable):
        row_gate(gates, gate_request(ctx, ""))
    out = row_gate(gates, gate_request(ctx, "", config={"judge": {"on_error": "allow"}}))
    assert out.keep == {r.id for r in ROWS}


def test_row_verdict_reasons_are_only_fixed_codes(gates, judged, scripted, db_url) -> None:
    ctx = judged()
    scripted.script(
        "row_judge",
        rows_reply({"e1": ("warn", "Alice is secretly ill"), **{r.id: "pass" for r in ROWS[1:]}}),
    )
    req = gate_request(ctx, "")
    out = row_gate(gates, req)
    assert out.warned == {"e1": ("policy",)}
    record(gates, req, out.pending)
    assert all("secretly" not in str(r) for r in judgements(db_url, ctx["id"]))
