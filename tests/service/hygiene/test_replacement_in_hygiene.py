"""Hygiene retires a record only as the replacement rule allows (issue 23, items 1 to 3):
a person's keep_a / keep_b toward a winner that is not served is refused, an automatic
resolution across scopes, visibilities or speakers never applies, entities are left to
consolidation, and a summary never retires what it was built from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.service.hygiene.helpers import CHEAP, STRONG, items, note, resolve, scan
from tests.service.review.memory import Who, command
from tests.service.usecases import facts, profile, refused
from tests.support.scripted_model import RecordedRequest, ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness

SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}


@pytest.fixture
def judged(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    return services_with(
        **scripted_models(scripted, model_adjudication=STRONG, model_hygiene=CHEAP)
    )


def _serving(sql: Callable[..., list[tuple]], record_id: Any) -> str:
    return sql("SELECT serving::text FROM memory_record WHERE id = %s", (record_id,))[0][0]


def _revision(sql: Callable[..., list[tuple]], record_id: str) -> int:
    return sql("SELECT revision FROM memory_record WHERE id = %s", (record_id,))[0][0]


def _likes(sql: Callable[..., list[tuple]]) -> list[tuple[str, str, str, str]]:
    """Every `likes` attribute: (scope path, visibility, owner, serving)."""
    return sql(
        "SELECT scope_path, visibility, owner_subject, serving::text FROM memory_record"
        " WHERE kind = 'attribute' AND attr_key = 'likes' ORDER BY created_at"
    )


# --- item 1: a person's decision toward a winner that is not served ------------------------


def test_keep_a_after_a_was_deleted_is_refused_and_changes_nothing(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    a = note(judged, ctx, "The deploy key rotates every month.")
    b = note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    [item] = items(judged, ctx)
    dead = item["a"]["id"]
    live = item["b"]["id"]
    command(Who.of(judged, ctx), "delete", record_id=dead, expected_revision=_revision(sql, dead))
    with refused(409, "replacement_refused") as raised:
        resolve(judged, ctx, item["id"], "keep_a")
    assert raised.value.extra == {"reason": "replacement_not_served"}
    assert _serving(sql, live) == "live"  # b was not superseded by a dead record
    [still] = [i for i in items(judged, ctx, None) if i["id"] == item["id"]]
    assert still["status"] == "pending" and still["resolution"] is None
    assert {a, b} == {dead, live}


def test_keep_b_after_b_was_rejected_is_refused_and_a_stays_served(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    [item] = items(judged, ctx)
    sql(
        "UPDATE memory_record SET review_disposition = 'rejected' WHERE id = %s",
        (item["b"]["id"],),
    )
    with refused(409, "replacement_refused"):
        resolve(judged, ctx, item["id"], "keep_b")
    assert _serving(sql, item["a"]["id"]) == "live"


# --- item 2: offline scans across scopes, visibilities and speakers ------------------------


def test_an_offline_scan_never_moves_a_fact_out_of_reach_of_its_scope(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I like hiking.", scope=["team/a"])
    facts(svc, ctx, "I like hiking.")  # the root of the key's scope, written later
    before = _likes(sql)
    assert len(before) == 2
    scan(svc, ctx)
    # The older team/a record would lose to the root one, which team/a readers need not
    # reach: never applied.
    assert [row[3] for row in _likes(sql)] == ["live", "live"]


def test_an_offline_scan_keeps_the_root_profile_whole_after_a_team_write(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I like hiking.")
    facts(svc, ctx, "I like hiking.", scope=["team/a"])
    scan(svc, ctx)
    seen = profile(svc, ctx, "me")
    assert ("likes", "hiking") in {
        (a["content"]["key"], a["content"]["value"]) for a in seen["attributes"]
    }
    # No entity was retired by hygiene: that is consolidation's, which carries the facts.
    entities = sql("SELECT serving::text FROM memory_record WHERE kind = 'entity'")
    assert {s for (s,) in entities} == {"live"}


def test_an_offline_scan_never_lets_a_private_copy_retire_the_shared_record(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I like hiking.")
    facts(svc, ctx, "I like hiking.", visibility="private")
    scan(svc, ctx)
    shared = [row for row in _likes(sql) if row[1] == "shared"]
    assert [row[3] for row in shared] == ["live"]
    assert items(svc, ctx) == []  # nothing a person could apply either: kept both


def test_an_offline_scan_never_lets_one_speakers_fact_retire_anothers(
    svc: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    olga = svc.make_context(subject="olga")
    bob = svc.add_key(olga.id, ["memory_read", "memory_write", "memory_review"], "bob")
    facts(svc, olga, "I like hiking.")
    facts(svc, bob, "I like hiking.", scope=["team/a"])
    scan(svc, olga)
    assert {row[2]: row[3] for row in _likes(sql)} == {"olga": "live", "bob": "live"}


# --- item 3: a summary never retires what it was built from --------------------------------


def _summary_supersedes(request: RecordedRequest) -> dict[str, Any]:
    first, _, second = request.user.partition("<<<MEMORY_B")
    a_summary = "session summary" in first.split("<<<MEMORY_A", 1)[-1]
    b_summary = "session summary" in second
    kinds = ("kind instruction" in request.user, a_summary != b_summary)
    if all(kinds):
        return {
            "verdict": "supersedes",
            "superseding": "a" if a_summary else "b",
            "confidence": 0.97,
        }
    return {"verdict": "unrelated", "superseding": None, "confidence": 0.9}


def test_a_rollup_judged_to_supersede_its_own_instruction_is_never_applied(
    services_with: Callable[..., ServiceHarness],
    scripted: ScriptedModelServer,
    sql: Callable[..., list[tuple]],
) -> None:
    from tests.service.passes.helpers import run_pass

    h = services_with(**scripted_models(scripted, model_hygiene=CHEAP))
    ctx = h.make_context(config={"hygiene": {"band_low": 0.2}})
    facts(h, ctx, "Always answer in French.")
    assert run_pass(h, ctx, "rollup")["status"] == "done"
    [(summary,)] = sql("SELECT id FROM memory_record WHERE attr_key = 'session_summary'")
    [(instruction,)] = sql("SELECT id FROM memory_record WHERE kind = 'instruction'")
    scripted.respond_with("hygiene", _summary_supersedes)
    run = scan(h, ctx)
    assert any(
        "kind instruction" in r.user and "session summary" in r.user
        for r in scripted.requests_for("hygiene")
    ), "the pair was judged"
    assert run["counts"]["auto_resolved"] == 0
    assert _serving(sql, instruction) == "live"
    assert _serving(sql, summary) == "live"
    [queued] = [
        i for i in items(h, ctx) if {i["a"]["id"], i["b"]["id"]} == {str(summary), str(instruction)}
    ]
    assert queued["reason"] == "replacement_derived_from_it"
