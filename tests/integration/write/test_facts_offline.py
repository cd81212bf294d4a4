"""/facts on the offline default (the rule extractor): input checks, sessions, infer=none."""

from __future__ import annotations

import uuid

from tests.integration.write.helpers import counts, facts, query, written


def test_a_turn_is_stored_extracted_and_reconciled(alice, ctx, sql) -> None:
    text = "I'm Alice, CTO at Acme. Always respond in bullet points."
    out = written(facts(alice, ctx["id"], text, scope=["org/acme/user/alice"]))
    ext = out["extraction"]
    assert ext["turnId"] == out["turnId"]
    names = {e["name"]: e for e in ext["entities"]}
    assert names["Alice"]["isNew"] and names["Acme"]["entityType"] == "organisation"
    assert {(a["key"], a["value"]) for a in ext["attributes"]} >= {("role", "CTO")}
    assert [(r["subject"], r["label"], r["object"]) for r in ext["relations"]] == [
        ("Alice", "works_at", "Acme")
    ]
    assert ext["instructions"][0]["description"].startswith("Always respond in bullet points")
    n = counts(sql)
    assert n["turn"] == 1 and n["chunk"] == 1
    assert n["memory_revision"] == n["memory_record"] == n["change_event"]
    assert n["memory_embedding"] == n["memory_record"]


def test_empty_or_blank_text_is_400(alice, ctx, sql) -> None:
    for text in ("", "   \n\t "):
        resp = facts(alice, ctx["id"], text)
        assert resp.status_code == 400 and resp.json()["error"]["field"] == "text"
    assert counts(sql)["turn"] == 0


def test_binary_junk_is_400(alice, ctx, sql) -> None:
    for raw in (
        '{"text": "abc\\u0000def"}',
        '{"text": "bad \\ud800 surrogate"}',
        '{"text": "\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006xy"}',
    ):
        resp = alice.post(
            f"/api/v1/{ctx['id']}/facts", content=raw, headers={"content-type": "application/json"}
        )
        assert resp.status_code == 400, raw
        assert resp.json()["error"]["code"] == "binary_content"
    assert counts(sql)["turn"] == 0


def test_infer_none_stores_the_turn_and_chunk_without_extraction(alice, ctx, sql) -> None:
    out = written(facts(alice, ctx["id"], "I'm Alice, CTO at Acme.", infer="none"))
    lists = {k: v for k, v in out["extraction"].items() if k not in ("turnId", "chunkOnly")}
    assert lists and all(v == [] for v in lists.values())
    assert out["extraction"]["chunkOnly"] is False  # nothing was asked, nothing failed
    n = counts(sql)
    assert (n["turn"], n["chunk"], n["memory_record"]) == (1, 1, 0)


def test_a_session_is_created_and_can_be_continued(alice, ctx, sql) -> None:
    first = written(facts(alice, ctx["id"], "I love jazz."))
    second = written(facts(alice, ctx["id"], "I live in Oslo.", sessionId=first["sessionId"]))
    assert second["sessionId"] == first["sessionId"]
    assert sql("SELECT count(DISTINCT session_id), count(*) FROM turn")[0] == (1, 2)


def test_an_unknown_session_is_404(alice, ctx) -> None:
    resp = facts(alice, ctx["id"], "I love jazz.", sessionId=str(uuid.uuid4()))
    assert resp.status_code == 404


def test_another_principals_session_in_another_scope_is_404(live, ctx, make_key) -> None:
    with live.client(ctx["key"]) as alice:
        mine = written(facts(alice, ctx["id"], "I love jazz.", scope=["team/a"]))
    bob_key = make_key(ctx["id"], ["memory_write", "memory_read"], subject="bob")
    with live.client(bob_key) as bob:
        elsewhere = facts(
            bob, ctx["id"], "I love tea.", scope=["team/b"], sessionId=mine["sessionId"]
        )
        same_scope = facts(
            bob, ctx["id"], "I love tea.", scope=["team/a"], sessionId=mine["sessionId"]
        )
    assert elsewhere.status_code == 404
    assert same_scope.status_code == 201


def test_writing_outside_the_keys_scope_is_403(live, ctx, make_key, sql) -> None:
    key = make_key(ctx["id"], ["memory_write"], subject="carol", scope="org/acme")
    with live.client(key) as carol:
        assert facts(carol, ctx["id"], "I love jazz.", scope=["org/other"]).status_code == 403
        assert facts(carol, ctx["id"], "I love jazz.").status_code == 403
        assert facts(carol, ctx["id"], "I love jazz.", scope=["org/acme/x"]).status_code == 201
    assert counts(sql)["turn"] == 1


def test_an_unreadable_configuration_refuses_the_write(alice, ctx, sql) -> None:
    sql("UPDATE context SET config = '{\"judge\": 7}'::jsonb WHERE id = %s", (ctx["id"],))
    resp = facts(alice, ctx["id"], "I love jazz.")
    assert resp.status_code == 503 and resp.json()["error"]["code"] == "config_unreadable"
    assert counts(sql)["turn"] == 0


def test_personal_data_is_redacted_before_storage_when_enabled(alice, admin, ctx, sql) -> None:
    admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"pii_redaction_enabled": True})
    written(facts(alice, ctx["id"], "Mail me at alice.chen@example.com please."))
    (text,) = sql("SELECT text FROM turn")[0]
    assert "alice.chen@example.com" not in text and "[REDACTED:" in text
    assert "example.com" not in sql("SELECT string_agg(text, ' ') FROM chunk")[0][0]


def test_a_turn_is_recallable_at_once(alice, ctx) -> None:
    out = written(facts(alice, ctx["id"], "I work at Initech. My favourite food is ramen."))
    hits = query(alice, ctx["id"], "Where does the user work?")
    assert any(h["source"]["ref"] == out["turnId"] for h in hits)
    assert {"id", "kind", "text", "score", "memoryCategory", "scope", "source", "revision"} <= set(
        hits[0]
    )
