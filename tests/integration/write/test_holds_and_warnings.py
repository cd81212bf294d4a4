"""The judge contract on the write path: a held write replaces nothing and is not served;
warned rows are written with one uncertainty naming the reason codes; dropped rows vanish."""

from __future__ import annotations

from tests.integration.write.gatekeepers import HoldEverything, WarnAttributes
from tests.integration.write.helpers import facts, query, written


def test_a_held_write_replaces_nothing_and_is_invisible(live_with, make_context, sql) -> None:
    plain = live_with()
    ctx = make_context(subject="alice")
    with plain.client(ctx["key"]) as c:
        written(facts(c, ctx["id"], "I'm Alice, an engineer at Acme."))
    plain.stop()
    held_server = live_with(gatekeeper=HoldEverything())
    with held_server.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], "I'm Alice, a manager at Globex. Always be brief."))
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
        hits = query(c, ctx["id"], "Alice manager Globex brief", limit=50)
        assert not [h for h in hits if out["turnId"] in (h["source"]["ref"], h["id"])]
        assert all("Globex" not in h["text"] for h in hits)
        profile = c.get(f"/api/v1/{ctx['id']}/profile", params={"entity": "Alice"}).json()
        assert [
            a["content"]["value"] for a in profile["attributes"] if a["content"]["key"] == "role"
        ] == ["engineer"]
        state = c.get(f"/api/v1/{ctx['id']}/state").json()
        assert state["instructions"] == []


def test_warned_rows_are_written_with_one_uncertainty_naming_the_reasons(
    live_with, make_context, sql
) -> None:
    server = live_with(gatekeeper=WarnAttributes())
    ctx = make_context(subject="alice")
    with server.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], "I'm Alice, CTO at Acme. My favourite food is ramen."))
    ext = out["extraction"]
    assert {a["key"] for a in ext["attributes"]} >= {"role", "favourite_food"}
    (note,) = ext["uncertainties"]
    assert "personal_data" in note["reason"] and "ramen" not in note["reason"]
    stored = sql("SELECT content FROM memory_record WHERE kind = 'uncertainty'")
    assert len(stored) == 1 and stored[0][0]["judgeReasons"] == ["personal_data"]


def test_rows_the_row_gate_drops_are_not_written(live_with, make_context, sql) -> None:
    server = live_with(gatekeeper=WarnAttributes())
    ctx = make_context(subject="alice")
    with server.client(ctx["key"]) as c:
        out = written(facts(c, ctx["id"], "I'm Mallory, a spy at Acme."))
    ext = out["extraction"]
    assert [e["name"] for e in ext["entities"]] == ["Acme"]
    assert ext["attributes"] == [] and ext["relations"] == []
    assert sql("SELECT count(*) FROM memory_record WHERE body LIKE '%%Mallory%%'")[0][0] == 0
    assert sql("SELECT count(*) FROM turn")[0][0] == 1
