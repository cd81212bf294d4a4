"""A Context exported and imported into a new one: every principal's served state, each
record's history and review state are the same there (issue 25)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from memwarden.errors import AppError
from memwarden.portability.service import ExportRequest, export_filter
from memwarden.review.timeline import record_history
from tests.integration.review.helpers import PRIVATE, SCOPE
from tests.service.portability.helpers import export_lines, export_text, import_file
from tests.service.review.memory import Who, command, create, decide
from tests.service.review.memory import state as review_state
from tests.service.usecases import facts, profile, query, refused, state
from tests.support.services import ContextKey, ServiceHarness, as_json

GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]
OTHER = {**SCOPE, "project_id": "p2"}


def _history(sql: Callable[..., list[tuple]], ctx: ContextKey) -> list[tuple[Any, ...]]:
    return sql(
        "SELECT record_id, revision, op, content, actor_subject, created_at "
        "FROM memory_revision WHERE context_id = %s ORDER BY record_id, revision",
        (ctx.id,),
    )


def _unsourced(value: Any) -> Any:
    """An answer without its records' `source` (an imported record's is `import`)."""
    if isinstance(value, dict):
        return {k: _unsourced(v) for k, v in value.items() if k != "source"}
    if isinstance(value, list):
        return [_unsourced(v) for v in value]
    return value


def _served(svc: ServiceHarness, key: ContextKey) -> dict[str, Any]:
    """What a principal is served: /state, the profiles it may read, /query hits."""
    served: dict[str, Any] = {"state": state(svc, key)}
    for name in ("alice", "bob"):
        try:
            served[f"profile {name}"] = profile(svc, key, name, history=True)
        except AppError as exc:
            served[f"profile {name}"] = exc.code
    for text in ("tea", "Berlin", "Paris", "chess", "release", "office", "Standup", "thought"):
        served[f"query {text}"] = query(svc, key, text, include_superseded=True)
    return _unsourced(served)


def _timeline(svc: ServiceHarness, key: ContextKey, record_id: str) -> Any:
    """GET /memories/{id}/history's answer, without `source_kind`: an imported record's is
    `import`, and with it the turn a speaker was read from."""
    try:
        found = as_json(
            svc.run(record_history(svc.services.db, key.caller, key.id, uuid.UUID(record_id)))
        )
    except AppError as exc:
        return exc.code
    return {k: v for k, v in found.items() if k not in ("source_kind", "speaker")}


def _fill(svc: ServiceHarness, alice: ContextKey, bob: ContextKey) -> list[tuple[str, dict]]:
    """Several principals, scopes and both visibilities, corrections, review decisions."""
    a, b = Who.of(svc, alice), Who.of(svc, bob)
    facts(svc, alice, "I live in Paris. I like green tea.", scope=["team/a"])
    facts(svc, alice, "I live in Berlin.", scope=["team/a"])
    facts(svc, bob, "I like chess.", scope=["team/b"], visibility="private")
    approved, _ = create(a, "The release is on Friday.")
    rejected, _ = create(a, "The office is closed.", OTHER)
    corrected, _ = create(b, "Standup at nine.", PRIVATE)
    deleted, _ = create(a, "A passing thought.")
    decide(a, approved, 1, disposition="approved")
    decide(a, rejected, 1, disposition="rejected", scope=OTHER)
    command(
        b, "update", PRIVATE, record_id=corrected, expected_revision=1, content="Standup at ten."
    )
    command(a, "delete", record_id=deleted, expected_revision=1)
    return [(approved, SCOPE), (rejected, OTHER), (corrected, PRIVATE), (deleted, SCOPE)]


def test_a_context_exported_and_imported_serves_every_principal_the_same_state_history_and_reviews(
    svc: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    alice = svc.make_context("source", GRANTS, subject="alice")
    bob = svc.add_key(alice.id, GRANTS[:3], subject="bob")
    notes = _fill(svc, alice, bob)
    exported = export_text(svc, alice, sessions=True)

    alice2 = svc.make_context("target", GRANTS, subject="alice")
    bob2 = svc.add_key(alice2.id, GRANTS[:3], subject="bob")
    done = import_file(svc, alice2, exported, "/projects/old-project")
    assert done["status"] == "done" and done["counts"]["refused"] == 0
    assert done["counts"]["imported"] == done["total"] > 0

    for old, new in ((alice, alice2), (bob, bob2)):
        served = _served(svc, old)
        assert served["query tea"] and served["query Standup"] != served["query release"]
        assert _served(svc, new) == served
        for record_id, scope in notes:
            who_old, who_new = Who.of(svc, old), Who.of(svc, new)
            if scope is PRIVATE and old is alice:
                continue  # bob's private note: alice may not read its review state
            assert review_state(who_new, record_id, scope) == review_state(
                who_old, record_id, scope
            )
    assert _history(sql, alice2) == _history(sql, alice)
    ids = [line["id"] for line in export_lines(svc, alice) if line["kind"] == "record"]
    for old, new in ((alice, alice2), (bob, bob2)):
        assert [_timeline(svc, new, i) for i in ids] == [_timeline(svc, old, i) for i in ids]
    kinds = sql(
        "SELECT DISTINCT source_kind, import_source_dir FROM memory_record WHERE context_id = %s",
        (alice2.id,),
    )
    assert kinds == [("import", "/projects/old-project")]


def test_an_import_of_the_same_export_again_skips_every_record(svc: ServiceHarness) -> None:
    alice = svc.make_context("source", GRANTS, subject="alice")
    facts(svc, alice, "I live in Paris.")
    exported = export_text(svc, alice)
    target = svc.make_context("target", GRANTS, subject="alice")
    first = import_file(svc, target, exported)
    again = import_file(svc, target, exported)
    assert first["counts"]["imported"] == first["total"]
    assert again["counts"]["skipped"] == again["total"] and again["counts"]["imported"] == 0


def test_a_reader_exports_only_what_it_may_read_and_a_manager_everything(
    svc: ServiceHarness,
) -> None:
    alice = svc.make_context("source", GRANTS, subject="alice")
    bob = svc.add_key(alice.id, ["memory_read", "memory_write"], subject="bob")
    facts(svc, alice, "I like green tea.", scope=["team/a"], visibility="private")
    facts(svc, bob, "I like chess.", scope=["team/b"])

    def owners(key: ContextKey) -> set[str]:
        return {line["owner"] for line in export_lines(svc, key) if line["kind"] == "record"}

    assert owners(alice) == {"alice", "bob"}
    assert owners(bob) == {"bob"}


def test_a_persons_export_holds_their_records_and_what_is_about_them_and_nothing_else(
    svc: ServiceHarness,
) -> None:
    alice = svc.make_context("source", GRANTS, subject="alice")
    bob = svc.add_key(alice.id, ["memory_read", "memory_write"], subject="bob")
    facts(svc, alice, "I like green tea.")
    facts(svc, bob, "I like chess.", scope=["team/b"])

    def records(key: ContextKey, **request: Any) -> list[dict[str, Any]]:
        return [line for line in export_lines(svc, key, **request) if line["kind"] == "record"]

    bobs = records(alice, subject="bob")
    assert bobs and {r["author"] for r in bobs} == {"bob"}
    assert any("chess" in r["body"] for r in bobs)
    assert records(bob, subject="bob") == bobs
    assert {r["scope"] for r in records(alice, scopes=("team/b",))} == {"team/b"}
    with refused(403, "missing_grant", "subject"):
        export_filter(bob.caller, bob.id, ExportRequest(subject="alice"))
