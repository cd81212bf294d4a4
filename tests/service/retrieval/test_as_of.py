"""Reads as of a moment (issue 25, "Time"): /query, /profile and /state answer what the key
would have been served then. One scripted sequence (writes, a correction, a revised note,
a declared supersede, a hold then its approval, a delete) with several principals, scopes
and visibilities in one Context; the moment after each step is read back on the real
database."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memwarden.retrieval.profile import get_profile
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.state import get_state
from tests.service.erasure.test_erasure_targets import erase
from tests.service.review.memory import Who, command, create, decide
from tests.service.usecases import decide_hold, facts, refused
from tests.service.write.gatekeepers import HoldEverything
from tests.support.services import ContextKey, ServiceHarness, as_json

Sql = Callable[..., list[tuple]]


def ask(
    h: ServiceHarness, who: ContextKey, text: str, at: Any = None, **options: Any
) -> list[dict[str, Any]]:
    req = QueryInput(text, options.pop("limit", 50), as_of=at, **options)
    return as_json(h.run(run_query(h.services, who.caller, who.id, req)))["hits"]


def texts(hits: list[dict[str, Any]], kind: str | None = None) -> set[str]:
    return {h["text"] for h in hits if kind is None or h["kind"] == kind}


def profile_at(h: ServiceHarness, who: ContextKey, entity: str, at: Any, **kw: Any) -> Any:
    call = get_profile(h.services, who.caller, who.id, entity, as_of=at, **kw)
    return as_json(h.run(call))


def state_at(h: ServiceHarness, who: ContextKey, at: Any) -> Any:
    return as_json(h.run(get_state(h.services, who.caller, who.id, as_of=at)))


def moment(sql: Sql) -> datetime:
    """The database clock between two steps (each step's writes are dated by it)."""
    time.sleep(0.01)
    [(now,)] = sql("SELECT clock_timestamp()")
    time.sleep(0.01)
    return now


def record_id(sql: Sql, context_id: uuid.UUID, body: str) -> uuid.UUID:
    [(rid,)] = sql(
        "SELECT id FROM memory_record WHERE context_id = %s AND body = %s", (context_id, body)
    )
    return rid


@dataclass
class Story:
    """The Context after the scripted sequence, and the moment after each step."""

    h: ServiceHarness
    alice: ContextKey
    bob: ContextKey
    team_b: ContextKey  # alice's subject, read only, narrowed to team/b
    at: list[datetime]
    note: str
    jazz: uuid.UUID


@pytest.fixture
def story(services_with: Callable[..., ServiceHarness], sql: Sql) -> Story:
    h = services_with()
    alice = h.make_context(subject="alice")
    bob = h.add_key(alice.id, ["memory_read", "memory_write"], "bob")
    team_b = h.add_key(alice.id, ["memory_read"], "alice", scope="team/b")
    at = [moment(sql)]  # 0: before anything
    facts(h, alice, "I live in Oslo.", scope=["team/a"])
    facts(h, alice, "I love jazz.", scope=["team/a"], visibility="private")
    facts(h, bob, "I love tea.", scope=["team/b"])
    facts(h, alice, "Always answer in French.", scope=["team/a"])
    note, rev = create(Who.of(h, alice), "remember the milk")
    at.append(moment(sql))  # 1: written
    facts(h, alice, "I live in Bergen.", scope=["team/a"])  # a correction: Oslo superseded
    command(Who.of(h, alice), "update", record_id=note, expected_revision=rev, content="eggs")
    at.append(moment(sql))  # 2: corrected
    jazz = record_id(sql, alice.id, "alice — loves: jazz")
    facts(h, alice, "I love blues.", scope=["team/a"], visibility="private", supersedes=[jazz])
    at.append(moment(sql))  # 3: declared supersede
    held = services_with(gatekeeper=HoldEverything())
    assert facts(held, alice, "I work at Acme.", scope=["team/a"])["held"] is True
    at.append(moment(sql))  # 4: held
    [(jid,)] = sql("SELECT id::text FROM judgement WHERE held")
    decide_hold(h, alice, jid, approve=True)
    at.append(moment(sql))  # 5: approved
    command(Who.of(h, alice), "delete", record_id=note, expected_revision=rev + 1)
    at.append(moment(sql))  # 6: deleted
    return Story(h, alice, bob, team_b, at, note, jazz)


def test_a_query_as_of_each_moment_serves_what_stood_then(story: Story) -> None:
    h, alice, at = story.h, story.alice, story.at
    assert ask(h, alice, "where do I live", at[0]) == []
    then = ask(h, alice, "where do I live", at[1], mode="lexical")
    assert "alice lives in Oslo" in texts(then, "relation")
    assert "alice lives in Bergen" not in texts(then)
    assert "I live in Oslo." in texts(then, "chunk") and "I live in Bergen." not in texts(then)
    later = ask(h, alice, "where do I live", at[2], mode="lexical")
    assert "alice lives in Bergen" in texts(later, "relation")
    assert "alice lives in Oslo" not in texts(later)
    assert texts(ask(h, alice, "where do I live", at[6])) == texts(ask(h, alice, "where do I live"))


def test_the_superseded_record_is_history_only_from_the_moment_it_was_replaced(
    story: Story,
) -> None:
    h, alice, at = story.h, story.alice, story.at
    before = ask(h, alice, "live Oslo", at[1], mode="lexical", include_superseded=True)
    [oslo] = [x for x in before if x["text"] == "alice lives in Oslo"]
    assert oslo.get("superseded") is None and oslo["revision"] == 1
    after = ask(h, alice, "live Oslo", at[2], mode="lexical", include_superseded=True)
    [oslo] = [x for x in after if x["text"] == "alice lives in Oslo"]
    assert oslo["superseded"] is True and oslo["supersededBy"] is not None


def test_a_revised_record_is_served_at_the_revision_valid_then_and_not_after_its_delete(
    story: Story,
) -> None:
    h, alice, at = story.h, story.alice, story.at
    hits = {i: ask(h, alice, "remember milk eggs", at[i], kinds=["note"]) for i in range(7)}
    assert hits[0] == []
    assert [(x["text"], x["revision"]) for x in hits[1]] == [("remember the milk", 1)]
    assert [(x["text"], x["revision"]) for x in hits[2]] == [("eggs", 2)]
    assert [x["text"] for x in hits[5]] == ["eggs"]
    assert hits[6] == [] and ask(h, alice, "remember milk eggs", kinds=["note"]) == []


def test_a_declared_supersede_and_private_records_read_as_they_stood_for_each_principal(
    story: Story,
) -> None:
    h, alice, bob, at = story.h, story.alice, story.bob, story.at
    assert "alice — loves: jazz" in texts(ask(h, alice, "love jazz blues", at[2], mode="lexical"))
    bobs = texts(ask(h, bob, "love jazz blues", at[2], mode="lexical"))
    assert "bob — loves: tea" in bobs and not {"alice — loves: jazz", "I love jazz."} & bobs
    later = texts(ask(h, alice, "love jazz blues", at[3], mode="lexical"))
    assert "alice — loves: blues" in later and "alice — loves: jazz" not in later
    assert "bob — loves: tea" in texts(ask(h, bob, "love tea", at[1], mode="lexical"))


def test_a_held_write_was_not_served_before_its_approval(story: Story) -> None:
    h, alice, at = story.h, story.alice, story.at
    held = ask(h, alice, "work Acme", at[4], mode="lexical")
    assert held == []
    approved = texts(ask(h, alice, "work Acme", at[5], mode="lexical"))
    assert "alice works at Acme" in approved and "I work at Acme." in approved


def test_a_narrowed_key_reads_only_its_scope_as_of_a_moment(story: Story) -> None:
    h, at = story.h, story.at
    seen = texts(ask(h, story.team_b, "live love tea Oslo", at[1], mode="lexical"))
    assert seen and all("Oslo" not in t for t in seen) and "bob — loves: tea" in seen


def test_a_profile_as_of_a_moment_has_the_facts_and_history_that_stood_then(
    story: Story,
) -> None:
    h, alice, at = story.h, story.alice, story.at
    with refused(404, field="entity"):
        profile_at(h, alice, "alice", at[0])
    then = profile_at(h, alice, "alice", at[1], history=True)
    assert {r["text"] for r in then["relations"]} == {"alice lives in Oslo"}
    assert {r["text"] for r in then["attributes"]} == {"alice — loves: jazz"}
    assert then["history"] == []
    later = profile_at(h, alice, "alice", at[3], history=True)
    assert {r["text"] for r in later["relations"]} == {"alice lives in Bergen"}
    assert {r["text"] for r in later["attributes"]} == {"alice — loves: blues"}
    assert {r["text"] for r in later["history"]} == {"alice lives in Oslo", "alice — loves: jazz"}
    assert "alice works at Acme" in {
        r["text"] for r in profile_at(h, alice, "alice", at[5])["relations"]
    }


def test_state_as_of_a_moment_lists_the_instructions_standing_then(story: Story) -> None:
    h, alice, at = story.h, story.alice, story.at
    assert state_at(h, alice, at[0])["instructions"] == []
    [instruction] = state_at(h, alice, at[1])["instructions"]
    assert "French" in instruction["text"]
    assert (
        state_at(h, story.bob, at[1])["instructions"]
        == state_at(h, story.bob, None)["instructions"]
    )


def test_an_as_of_read_is_not_counted_as_recall_traffic(story: Story, sql: Sql) -> None:
    before = sql("SELECT coalesce(sum(hits), 0) FROM recall_event")
    ask(story.h, story.alice, "where do I live", story.at[2])
    state_at(story.h, story.alice, story.at[2])
    assert sql("SELECT coalesce(sum(hits), 0) FROM recall_event") == before
    ask(story.h, story.alice, "where do I live")
    assert sql("SELECT coalesce(sum(hits), 0) FROM recall_event") != before


def test_erased_content_never_comes_back_through_a_past_moment(
    story: Story, sql: Sql, db_url: str
) -> None:
    h, alice, at = story.h, story.alice, story.at
    oslo = record_id(sql, alice.id, "alice lives in Oslo")
    assert ask(h, alice, "Oslo", at[1], mode="lexical", kinds=["relation"])
    erase(h, alice, recordIds=[str(oslo)])
    assert ask(h, alice, "Oslo", at[1], mode="lexical", kinds=["relation"]) == []
    assert ask(h, alice, "Oslo", at[1], mode="vector", kinds=["relation"]) == []
    kept = sql(
        "SELECT count(*) FROM memory_record_past WHERE record_id = %s "
        "AND (content IS NOT NULL OR body <> '' OR norm_name IS NOT NULL)",
        (oslo,),
    )
    assert kept == [(0,)]
    assert sql("SELECT count(*) FROM memory_record_past WHERE record_id = %s", (oslo,))[0][0] > 0


@pytest.mark.parametrize(
    "value",
    ["yesterday", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00", "x" * 40],
    ids=["words", "no month 13", "no timezone", "long junk"],
)
def test_a_malformed_or_naive_moment_is_refused_naming_as_of(
    svc: ServiceHarness, value: str
) -> None:
    ctx = svc.make_context()
    with refused(400, field="as_of"):
        ask(svc, ctx, "anything", value)
    with refused(400, field="as_of"):
        state_at(svc, ctx, value)
    with refused(400, field="as_of"):
        profile_at(svc, ctx, "me", value)


def test_a_moment_past_the_clock_skew_is_refused_and_one_within_it_reads_as_now(
    svc: ServiceHarness,
) -> None:
    ctx = svc.make_context()
    facts(svc, ctx, "I live in Oslo.")
    now = datetime.now(UTC)
    with refused(400, field="as_of"):
        ask(svc, ctx, "Oslo", now + timedelta(minutes=2))
    soon = ask(svc, ctx, "Oslo", (now + timedelta(seconds=20)).isoformat(), mode="lexical")
    assert texts(soon) == texts(ask(svc, ctx, "Oslo", mode="lexical"))
    assert soon


def test_a_derived_record_is_served_as_of_a_moment_while_its_source_was_servable_then(
    svc: ServiceHarness, ctx: ContextKey, sql: Sql
) -> None:
    alice = Who.of(svc, ctx)
    derived, _ = create(alice, "pelican summary")
    source, rev = create(alice, "pelican source")
    sql("UPDATE memory_record SET derived_from = %s::uuid[] WHERE id = %s", ([source], derived))
    served = moment(sql)
    decide(alice, source, rev, disposition="rejected")
    rejected = moment(sql)
    assert texts(ask(svc, ctx, "pelican", served, mode="lexical")) == {
        "pelican summary",
        "pelican source",
    }
    assert texts(ask(svc, ctx, "pelican", rejected, mode="lexical")) == set()
    assert texts(ask(svc, ctx, "pelican", mode="lexical")) == set()
