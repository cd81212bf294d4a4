"""The facts use case on the offline default (the rule extractor): storage, sessions,
infer=none, scope checks, configuration and redaction."""

from __future__ import annotations

import uuid

from tests.integration.write.helpers import counts
from tests.service.usecases import facts, query, refused


def test_a_turn_is_stored_extracted_and_reconciled(svc, ctx, sql) -> None:
    text = "I'm Alice, CTO at Acme. Always respond in bullet points."
    out = facts(svc, ctx, text, scope=["org/acme/user/alice"])
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


def test_infer_none_stores_the_turn_and_chunk_without_extraction(svc, ctx, sql) -> None:
    out = facts(svc, ctx, "I'm Alice, CTO at Acme.", infer="none")
    lists = {k: v for k, v in out["extraction"].items() if k not in ("turnId", "chunkOnly")}
    assert lists and all(v == [] for v in lists.values())
    assert out["extraction"]["chunkOnly"] is False  # nothing was asked, nothing failed
    n = counts(sql)
    assert (n["turn"], n["chunk"], n["memory_record"]) == (1, 1, 0)


def test_a_session_is_created_and_can_be_continued(svc, ctx, sql) -> None:
    first = facts(svc, ctx, "I love jazz.")
    second = facts(svc, ctx, "I live in Oslo.", session_id=uuid.UUID(first["sessionId"]))
    assert second["sessionId"] == first["sessionId"]
    assert sql("SELECT count(DISTINCT session_id), count(*) FROM turn")[0] == (1, 2)


def test_an_unknown_session_is_404(svc, ctx) -> None:
    with refused(404):
        facts(svc, ctx, "I love jazz.", session_id=uuid.uuid4())


def test_another_principals_session_in_another_scope_is_404(svc, ctx) -> None:
    mine = facts(svc, ctx, "I love jazz.", scope=["team/a"])
    session = uuid.UUID(mine["sessionId"])
    bob = svc.add_key(ctx.id, ["memory_write", "memory_read"], subject="bob")
    with refused(404):
        facts(svc, bob, "I love tea.", scope=["team/b"], session_id=session)


def test_a_session_belongs_to_its_subject_whatever_the_scope(svc, ctx, sql) -> None:
    """Issue 15 finding 9: another subject could add turns to a private session."""
    mine = facts(svc, ctx, "I love jazz.", scope=["team/a"], visibility="private")
    session = uuid.UUID(mine["sessionId"])
    bob = svc.add_key(ctx.id, ["memory_write", "memory_read"], subject="bob")
    for visibility in ("private", "shared"):
        with refused(404):
            facts(
                svc,
                bob,
                "I love tea.",
                scope=["team/a"],
                visibility=visibility,
                session_id=session,
            )
    assert sql("SELECT count(*) FROM turn WHERE session_id = %s", (session,))[0] == (1,)
    again = facts(svc, ctx, "I love tea.", scope=["team/b"], session_id=session)
    assert again["sessionId"] == str(session)


def test_writing_outside_the_keys_scope_is_403(svc, ctx, sql) -> None:
    carol = svc.add_key(ctx.id, ["memory_write"], subject="carol", scope="org/acme")
    with refused(403):
        facts(svc, carol, "I love jazz.", scope=["org/other"])
    with refused(403):
        facts(svc, carol, "I love jazz.")
    assert facts(svc, carol, "I love jazz.", scope=["org/acme/x"])["turnId"]
    assert counts(sql)["turn"] == 1


def test_an_unreadable_configuration_refuses_the_write(svc, ctx, sql) -> None:
    sql("UPDATE context SET config = '{\"judge\": 7}'::jsonb WHERE id = %s", (ctx["id"],))
    with refused(503, "config_unreadable"):
        facts(svc, ctx, "I love jazz.")
    assert counts(sql)["turn"] == 0


def test_personal_data_is_redacted_before_storage_when_enabled(svc, ctx, sql) -> None:
    svc.configure(ctx.id, {"pii_redaction_enabled": True})
    facts(svc, ctx, "Mail me at alice.chen@example.com please.")
    (text,) = sql("SELECT text FROM turn")[0]
    assert "alice.chen@example.com" not in text and "[REDACTED:" in text
    assert "example.com" not in sql("SELECT string_agg(text, ' ') FROM chunk")[0][0]


def test_a_turn_is_recallable_at_once(svc, ctx) -> None:
    out = facts(svc, ctx, "I work at Initech. My favourite food is ramen.")
    hits = query(svc, ctx, "Where does the user work?")
    assert any(h["source"]["ref"] == out["turnId"] for h in hits)
    assert {"id", "kind", "text", "score", "memoryCategory", "scope", "source", "revision"} <= set(
        hits[0]
    )
