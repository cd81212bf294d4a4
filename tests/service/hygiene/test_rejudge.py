"""The re-judge pass and the stale sweep (issue 23, items 6 and 10): every re-judge call is
attributed to the memory's owner, a side's new revision without a vector is judged all the
same, the cross-project predicate applies before any call (and in the stale sweep), the
new verdict is kept on the item, and consolidation's rows are left to a person."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memwarden.domain.ids import new_id
from tests.service.hygiene.helpers import STRONG, items, note, scan
from tests.service.review.memory import Who, command
from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ServiceHarness

SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}
COMPLEMENTARY = {"verdict": "complementary", "superseding": None, "confidence": 0.9}
DUPLICATE = {"verdict": "duplicate", "superseding": None, "confidence": 0.6}


@pytest.fixture
def judged(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    return services_with(**scripted_models(scripted, model_adjudication=STRONG))


def _judge_events(sql: Callable[..., list[tuple]], actor: str) -> int:
    rows = sql(
        "SELECT count(*) FROM audit_event WHERE action = 'hygiene.judge' AND actor_subject = %s",
        (actor,),
    )
    return int(rows[0][0])


def test_every_rejudge_call_is_attributed_to_the_owner_of_the_memory(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    calls, events = len(scripted.requests_for("adjudication")), _judge_events(sql, "alice")
    assert events == calls
    scan(judged, ctx, rejudge=True)
    rejudged = len(scripted.requests_for("adjudication")) - calls
    assert rejudged == 1
    assert _judge_events(sql, "alice") == events + rejudged


def test_a_pending_pair_whose_side_has_a_new_revision_without_a_vector_is_rejudged(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    b = note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    [(revision,)] = sql("SELECT revision FROM memory_record WHERE id = %s", (b,))
    command(
        Who.of(judged, ctx),
        "update",
        record_id=b,
        expected_revision=revision,
        content="The deploy key rotates every week, on Mondays.",
    )
    scripted.respond_with("adjudication", COMPLEMENTARY)
    run = scan(judged, ctx, rejudge=True)
    assert items(judged, ctx) == []
    [item] = items(judged, ctx, "dismissed")
    assert item["dismissed_because"] == "rejudged" and run["counts"]["dismissed"] == 1
    asked = scripted.requests_for("adjudication")[-1].user
    assert "on Mondays" in asked  # judged as it stands now


def _queued_across_projects(
    judged: ServiceHarness, sql: Callable[..., list[tuple]]
) -> tuple[object, str]:
    """A pair pending from before the cross-project filter (as an older release queued it)."""
    ctx = judged.make_context()
    who = Who.of(judged, ctx)
    scope = {"project_id": "falcon", "mission_id": None, "agent_id": None, "visibility": "shared"}
    other = {**scope, "project_id": "osprey"}
    from tests.service.review.memory import create

    a, _ = create(who, "The build uses Gradle.", scope)
    b, _ = create(who, "The build uses Maven.", other)
    conflict = new_id()
    sql(
        "INSERT INTO conflict (context_id, id, record_a, record_b, verdict, confidence,"
        " status, judge_model, origin, judging_path, action) VALUES"
        " (%s, %s, %s, %s, 'contradiction', 0.9, 'pending', %s, 'scan', 'adjudication',"
        " 'queued')",
        (ctx.id, conflict, a, b, STRONG),
    )
    return ctx, str(conflict)


def test_rejudge_dismisses_a_provably_cross_project_pair_without_a_judge_call(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx, conflict = _queued_across_projects(judged, sql)
    scripted.respond_with("adjudication", DUPLICATE)
    scan(judged, ctx, rejudge=True)  # type: ignore[arg-type]
    assert scripted.requests_for("adjudication") == []
    [(status, because)] = sql(
        "SELECT status, dismissed_because FROM conflict WHERE id = %s", (conflict,)
    )
    assert (status, because) == ("dismissed", "cross_project")


def test_the_stale_sweep_dismisses_a_provably_cross_project_pair(
    judged: ServiceHarness, scripted: ScriptedModelServer, sql: Callable[..., list[tuple]]
) -> None:
    ctx, conflict = _queued_across_projects(judged, sql)
    run = scan(judged, ctx)  # type: ignore[arg-type]
    [(status, because)] = sql(
        "SELECT status, dismissed_because FROM conflict WHERE id = %s", (conflict,)
    )
    assert (status, because) == ("dismissed", "cross_project")
    assert run["counts"]["dismissed"] == 1
    audited = sql(
        "SELECT count(*) FROM audit_event WHERE action = 'hygiene.dismiss' AND target_id = %s",
        (conflict,),
    )
    assert audited == [(1,)]


def test_rejudge_keeps_the_new_verdict_on_an_item_it_leaves_queued(
    judged: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    ctx = judged.make_context()
    note(judged, ctx, "The deploy key rotates every month.")
    note(judged, ctx, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scan(judged, ctx)
    scripted.respond_with(
        "adjudication", {"verdict": "contradiction", "superseding": None, "confidence": 0.7}
    )
    scan(judged, ctx, rejudge=True)
    [item] = items(judged, ctx)
    assert item["verdict"] == "contradiction" and item["confidence"] == 0.7
    assert item["direction"] is None and item["judge_model"] == STRONG
