"""A record's history at the service tier (issue 25, "Time"): each revision's cause, author,
validity and replacement, for every path that writes a revision; paging at its edges; the
read grant; an erased record's tombstones."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from memwarden.erasure import run as erasure_run
from memwarden.erasure.contract import ErasureBody
from memwarden.erasure.service import request_erasure
from memwarden.review.timeline import MAX_PAGE, record_history
from tests.integration.review.helpers import PRIVATE
from tests.service.hygiene.helpers import CHEAP, STRONG, items, note, resolve, restore, scan
from tests.service.hygiene.test_scan import _attributes_duplicate, _provisional_pair
from tests.service.passes.helpers import run_pass
from tests.service.passes.test_consolidation import _person
from tests.service.review.memory import Who, command, create, decide
from tests.service.usecases import facts, refused
from tests.support.replies import attr, extraction, person
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness, as_json

Sql = Callable[..., list[tuple]]
SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}


def history(h: ServiceHarness, who: ContextKey, record_id: str, **page: Any) -> dict[str, Any]:
    """GET .../memories/{record_id}/history's use case."""
    found = record_history(h.services.db, who.caller, who.id, uuid.UUID(record_id), **page)
    return as_json(h.run(found))


def causes(answer: dict[str, Any]) -> list[tuple[str, str]]:
    """(op, cause) oldest first."""
    return [(r["op"], r["cause"]) for r in reversed(answer["revisions"])]


def _live_attribute(sql: Sql, context_id: uuid.UUID) -> str:
    rows = sql(
        "SELECT id::text FROM memory_record WHERE context_id = %s AND kind = 'attribute' "
        "AND serving = 'live' ORDER BY created_at, id LIMIT 1",
        (context_id,),
    )
    return rows[0][0]


def test_a_new_value_is_a_correction_that_names_the_record_replacing_it(
    modelled: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    ctx = modelled.make_context(subject="alice")
    scripted.script(
        "extraction",
        extraction(entities=[person("Alice Chen")], attributes=[attr("Alice Chen", "role", "CTO")]),
    )
    first = facts(modelled, ctx, "a turn")["extraction"]["attributes"][0]["id"]
    scripted.script("extraction", extraction(attributes=[attr("Alice Chen", "role", "CEO")]))
    second = facts(modelled, ctx, "another turn")["extraction"]["attributes"][0]["id"]

    old = history(modelled, ctx, first)
    assert causes(old) == [("create", "write"), ("supersede", "correction")]
    assert old["serving"] == "superseded" and old["author"] == "alice"
    assert old["speaker"] == "principal:alice" and old["source_kind"] == "turn"
    newest, created = old["revisions"]
    assert newest["replaced_by"] == second and newest["valid_to"] is not None
    assert newest["until"] is None and created["until"] == newest["recorded_at"]
    assert created["replaced_by"] is None and created["valid_to"] is None
    assert {r["author"] for r in old["revisions"]} == {"alice"}
    assert not any(r["tombstone"] for r in old["revisions"])
    assert causes(history(modelled, ctx, second)) == [("create", "write")]


def test_a_declared_supersede_is_named_as_such(svc: ServiceHarness, sql: Sql) -> None:
    ctx = svc.make_context(subject="alice")
    facts(svc, ctx, "I'm Alice, CTO at Acme.")
    old = _live_attribute(sql, ctx.id)
    facts(svc, ctx, "I love jazz.", supersedes=[uuid.UUID(old)])
    answer = history(svc, ctx, old)
    assert causes(answer) == [("create", "write"), ("supersede", "declared_supersede")]
    assert answer["revisions"][0]["replaced_by"] is not None


def test_commands_and_review_decisions_have_their_own_causes(svc: ServiceHarness) -> None:
    ctx = svc.make_context(subject="alice")
    who = Who.of(svc, ctx)
    rid, rev = create(who, "The deploy key rotates monthly.")
    done = command(who, "update", record_id=rid, expected_revision=rev, content="Weekly.")
    approved = decide(who, rid, done["revision"])
    command(who, "delete", record_id=rid, expected_revision=approved["receipt"]["revision"])
    assert causes(history(svc, ctx, rid)) == [
        ("create", "write"),
        ("update", "correction"),
        ("review", "review_decision"),
        ("delete", "delete"),
    ]


@pytest.fixture
def judged(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    return services_with(
        **scripted_models(scripted, model_adjudication=STRONG, model_hygiene=CHEAP)
    )


def test_a_persons_hygiene_resolution_names_the_record_kept(
    judged: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    ctx = judged.make_context(subject="alice")
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    [item] = items(judged, ctx)
    resolve(judged, ctx, item["id"], "keep_a")
    loser = history(judged, ctx, item["b"]["id"])
    assert causes(loser) == [("create", "write"), ("supersede", "hygiene_resolution")]
    assert loser["revisions"][0]["replaced_by"] == item["a"]["id"]
    assert loser["revisions"][0]["author"] == "alice"


def test_an_automatic_hygiene_resolution_and_the_restore_that_undoes_it(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Sql
) -> None:
    ctx = judged.make_context(subject="alice")
    _provisional_pair(judged, ctx)
    scripted.respond_with("hygiene", _attributes_duplicate)
    assert scan(judged, ctx)["counts"]["auto_resolved"] >= 1
    [(loser,), *_] = sql(
        "SELECT id::text FROM memory_record WHERE kind = 'attribute' AND serving = 'superseded'"
    )
    resolved = history(judged, ctx, loser)
    assert causes(resolved) == [("create", "write"), ("supersede", "hygiene_resolution")]
    assert resolved["revisions"][0]["author"] == "hygiene"
    assert resolved["revisions"][0]["replaced_by"] is not None
    restore(judged, ctx, loser)
    back = history(judged, ctx, loser)
    assert causes(back)[-1] == ("restore", "restore")
    assert back["serving"] == "live"
    assert back["revisions"][0]["replaced_by"] is None and back["revisions"][0]["valid_to"] is None
    assert back["revisions"][1]["until"] == back["revisions"][0]["recorded_at"]


def test_a_consolidation_merge_is_named_consolidation(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer, sql: Sql
) -> None:
    h = services_with(**scripted_models(scripted, model_extraction="openai:x"))
    ctx = h.make_context(subject="alice")
    for name, key, value in (("Alice", "role", "engineer"), ("Alice Chen", "employer", "Acme")):
        scripted.script("extraction", Reply.json(_person(name, key, value)))
        facts(h, ctx, f"About {name}: {key} is {value}.")
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    [(alias,)] = sql(
        "SELECT id::text FROM memory_record WHERE content->>'name' = 'Alice' AND kind = 'entity'"
    )
    answer = history(h, ctx, alias)
    assert causes(answer) == [("create", "write"), ("supersede", "consolidation")]
    assert answer["revisions"][0]["author"] == "pass:consolidation"


def test_an_erased_record_shows_content_free_tombstones(svc: ServiceHarness) -> None:
    ctx = svc.make_context(subject="alice")
    who = Who.of(svc, ctx)
    rid, rev = create(who, "The vault code is 4417.")
    decide(who, rid, rev)
    started = svc.run(
        request_erasure(svc.services, ctx.caller, ctx.id, ErasureBody(recordIds=[rid]))
    )
    assert svc.run(erasure_run.execute(svc.services, ctx.id, uuid.UUID(started.erasureId)))
    answer = history(svc, ctx, rid)
    assert answer["serving"] == "erased"
    assert causes(answer) == [
        ("create", "write"),
        ("review", "review_decision"),
        ("erase", "erasure"),
    ]
    assert all(r["tombstone"] for r in answer["revisions"])
    assert "4417" not in str(answer)


def test_a_long_history_is_paged_newest_first_to_its_first_revision(svc: ServiceHarness) -> None:
    ctx = svc.make_context(subject="alice")
    who = Who.of(svc, ctx)
    rid, rev = create(who, "v0")
    for i in range(1, 5):
        rev = command(who, "update", record_id=rid, expected_revision=rev, content=f"v{i}")[
            "revision"
        ]
    seen, cursor = [], None
    while True:
        page = history(svc, ctx, rid, cursor=cursor, limit=2)
        assert len(page["revisions"]) <= 2
        seen += [r["revision"] for r in page["revisions"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [5, 4, 3, 2, 1]
    exact = history(svc, ctx, rid, limit=5)  # exactly one page: no empty page after it
    assert len(exact["revisions"]) == 5 and exact["next_cursor"] is None


@pytest.mark.parametrize("limit", [0, MAX_PAGE + 1])
def test_a_page_limit_outside_one_to_the_maximum_is_refused(
    svc: ServiceHarness, limit: int
) -> None:
    ctx = svc.make_context(subject="alice")
    rid, _ = create(Who.of(svc, ctx), "a note")
    with refused(400, field="limit"):
        history(svc, ctx, rid, limit=limit)
    assert len(history(svc, ctx, rid, limit=MAX_PAGE)["revisions"]) == 1
    assert len(history(svc, ctx, rid, limit=1)["revisions"]) == 1


@pytest.mark.parametrize("cursor", ["x", "-1", "0", "99999999999"])
def test_a_malformed_cursor_is_refused(svc: ServiceHarness, cursor: str) -> None:
    ctx = svc.make_context(subject="alice")
    rid, _ = create(Who.of(svc, ctx), "a note")
    with refused(400, field="cursor"):
        history(svc, ctx, rid, cursor=cursor)


def test_a_history_needs_the_grant_to_read_the_record(svc: ServiceHarness) -> None:
    ctx = svc.make_context(subject="alice")
    rid, _ = create(Who.of(svc, ctx), "a shared note")
    mine, _ = create(Who.of(svc, ctx), "a private note", PRIVATE)
    reader = svc.add_key(ctx.id, ["memory_read"], "bob")
    assert causes(history(svc, reader, rid)) == [("create", "write")]
    with refused(404):
        history(svc, reader, mine)  # private to alice
    elsewhere = svc.add_key(ctx.id, ["memory_read"], "carol", scope="project/zeus")
    with refused(404):
        history(svc, elsewhere, rid)
    writer = svc.add_key(ctx.id, ["memory_write"], "dave")
    with refused(403, code="missing_grant"):
        history(svc, writer, rid)
    with refused(404):
        history(svc, reader, str(uuid.uuid4()))
    other = svc.make_context("other", subject="erin")
    with refused(404):
        history(svc, other, rid)  # not in erin's Context
    with refused(403):  # another tenant's Context, whether or not the record exists
        svc.run(record_history(svc.services.db, other.caller, ctx.id, uuid.UUID(rid)))


def test_history_written_after_the_fact_keeps_only_what_its_writer_gives(
    svc: ServiceHarness, sql: Sql
) -> None:
    """An import replays a record's older revisions after the record row holds its last
    state: only the revision that is the row's present one takes the row's validity and
    replacement; a cause the writer gives is kept, an op's own fills in otherwise."""
    ctx = svc.make_context(subject="alice")
    rid, survivor = uuid.uuid4(), uuid.uuid4()
    sql(
        "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
        " author_subject, revision, serving, valid_to, superseded_by)"
        " VALUES (%s, %s, 'note', 'alice', '{}', 'x', 'alice', 3, 'superseded', now(), %s)",
        (ctx.id, rid, survivor),
    )
    for revision, op, cause in (
        (1, "create", None),
        (2, "update", None),
        (3, "supersede", "consolidation"),
    ):
        sql(
            "INSERT INTO memory_revision (context_id, record_id, revision, op, actor_subject,"
            " cause) VALUES (%s, %s, %s, %s, 'alice', %s)",
            (ctx.id, rid, revision, op, cause),
        )
    answer = history(svc, ctx, str(rid))
    assert causes(answer) == [
        ("create", "write"),
        ("update", "correction"),
        ("supersede", "consolidation"),
    ]
    last, *older = answer["revisions"]
    assert last["replaced_by"] == str(survivor) and last["valid_to"] is not None
    assert [(r["replaced_by"], r["valid_to"], r["valid_from"]) for r in older] == [
        (None, None, None)
    ] * 2
