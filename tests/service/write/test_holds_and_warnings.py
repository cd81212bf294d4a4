"""The judge contract on the write path: a held write replaces nothing and is not served;
warned rows are written with one uncertainty naming the reason codes; dropped rows vanish."""

from __future__ import annotations

from tests.service.usecases import facts, profile, query, state
from tests.service.write.gatekeepers import HoldEverything, WarnAttributes


def test_a_held_write_replaces_nothing_and_is_invisible(services_with, sql) -> None:
    plain = services_with()
    ctx = plain.make_context(subject="alice")
    facts(plain, ctx, "I'm Alice, an engineer at Acme.")
    held_server = services_with(gatekeeper=HoldEverything())
    out = facts(held_server, ctx, "I'm Alice, a manager at Globex. Always be brief.")
    assert out["held"] is True
    (jid,) = sql("SELECT id::text FROM judgement WHERE held")[0]
    held = sql(
        "SELECT DISTINCT serving::text, hold_judgement_id::text FROM memory_record "
        "WHERE source_ref = %s",
        (out["turnId"],),
    )
    assert held == [("held", jid)]
    assert sql(
        "SELECT serving::text, hold_judgement_id::text FROM turn WHERE id = %s",
        (out["turnId"],),
    ) == [("held", jid)]
    assert sql("SELECT count(*) FROM memory_record WHERE serving = 'superseded'")[0][0] == 0
    hits = query(held_server, ctx, "Alice manager Globex brief", limit=50)
    assert not [h for h in hits if out["turnId"] in (h["source"]["ref"], h["id"])]
    assert all("Globex" not in h["text"] for h in hits)
    found = profile(held_server, ctx, "Alice")
    assert [
        a["content"]["value"] for a in found["attributes"] if a["content"]["key"] == "role"
    ] == ["engineer"]
    assert state(held_server, ctx)["instructions"] == []


def test_warned_rows_are_written_with_one_uncertainty_naming_the_reasons(
    services_with, sql
) -> None:
    server = services_with(gatekeeper=WarnAttributes())
    ctx = server.make_context(subject="alice")
    out = facts(server, ctx, "I'm Alice, CTO at Acme. My favourite food is ramen.")
    ext = out["extraction"]
    assert {a["key"] for a in ext["attributes"]} >= {"role", "favourite_food"}
    (note,) = ext["uncertainties"]
    assert "personal_data" in note["reason"] and "ramen" not in note["reason"]
    stored = sql("SELECT content FROM memory_record WHERE kind = 'uncertainty'")
    assert len(stored) == 1 and stored[0][0]["judgeReasons"] == ["personal_data"]


def test_rows_the_row_gate_drops_are_not_written(services_with, sql) -> None:
    server = services_with(gatekeeper=WarnAttributes())
    ctx = server.make_context(subject="alice")
    out = facts(server, ctx, "I'm Mallory, a spy at Acme.")
    ext = out["extraction"]
    # The name row is dropped: the speaker's entity keeps its id as its name, and the rows
    # the gate kept (the role, the employer) are written.
    assert [e["name"] for e in ext["entities"]] == ["alice", "Acme"]
    assert [(a["key"], a["value"]) for a in ext["attributes"]] == [("role", "spy")]
    assert "Mallory" not in str(ext)
    assert sql("SELECT count(*) FROM memory_record WHERE body LIKE '%%Mallory%%'")[0][0] == 0
    assert sql("SELECT count(*) FROM memory_record WHERE content::text LIKE '%%Mallory%%'") == [
        (0,)
    ]
    assert sql("SELECT count(*) FROM turn")[0][0] == 1
