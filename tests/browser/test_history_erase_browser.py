"""A record's history as a timeline and the erase action, in a real browser: the record page
shows each revision's cause; erasing a record or a subject asks for a typed confirmation,
refuses a wrong one, and follows the job to its counts (screenshots under
test-output/screenshots/)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.integration.review.helpers import command, create, decide, ok
from tests.support.live import LiveServer
from tests.support.replies import PASS_VERDICT, rows_reply
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """Erasures are jobs: an in-process worker; the judge passes everything."""
    scripted.respond_with("judge", Reply.json(PASS_VERDICT))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    return live_with(run_worker=True, **scripted_models(scripted, model_judge="openai:judge"))


def _reviewed_note(live: LiveServer, key: str, text: str) -> str:
    """A note corrected once and approved: three revisions with three causes."""
    with live.client(key) as api:
        rid, rev = create(api, text)
        rev = ok(command(api, "update", record_id=rid, expected_revision=rev, content=text + "!"))[
            "revision"
        ]
        assert decide(api, rid, rev).status_code == 200
    return rid


def test_a_records_page_shows_its_history_as_a_timeline(
    dashboard: Any, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    rid = _reviewed_note(live, ctx["key"], "The standup moved to ten")
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/memories/{rid}?visibility=shared")
    page = dashboard.page
    page.get_by_role("heading", name="History").wait_for()
    entries = page.locator("ol.timeline > li.tl-entry")
    assert entries.count() == 3
    assert entries.locator(".tl-cause").all_inner_texts() == [
        "review decision",
        "correction",
        "write",
    ]
    assert entries.first.locator(".tl-current").inner_text() == "current"
    assert "by alice" in entries.nth(1).inner_text()
    dashboard.shot("record-timeline")


def test_erasing_a_record_needs_its_typed_id_and_shows_the_jobs_counts(
    dashboard: Any, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    rid = _reviewed_note(live, ctx["key"], "The vault code is 4417")
    dashboard.sign_in(ctx["key"])
    page = dashboard.page
    dashboard.open(f"/ui/c/{ctx['id']}/memories/{rid}?visibility=shared")
    page.get_by_role("heading", name="Erase").wait_for()
    page.get_by_label(re.compile("^Type the record id")).fill(rid[:8])
    page.get_by_role("button", name="Erase for good").click()
    alert = page.get_by_role("alert")
    assert "Nothing erased" in alert.inner_text()
    dashboard.shot("erase-refused")
    with live.client(ctx["key"]) as api:
        still = api.post(
            "/api/v1/memory/read",
            json={"contract_version": 1, "scope": {"visibility": "shared"}, "record_id": rid},
        )
        assert still.status_code == 200  # a wrong confirmation erased nothing
    page.get_by_label(re.compile("^Type the record id")).fill(rid)
    page.get_by_role("button", name="Erase for good").click()
    page.wait_for_url(re.compile(r"/erasures/"))
    page.locator(".erasure-status").filter(has_text=re.compile("^done$")).wait_for(timeout=60_000)
    assert page.locator(".count-records").inner_text() == "1"
    assert int(page.locator(".count-revisions").inner_text()) >= 3
    dashboard.shot("erasure-done")
    dashboard.open(f"/ui/c/{ctx['id']}/memories/{rid}?visibility=shared")
    page.get_by_role("heading", name="History").wait_for()
    assert page.locator(".history-serving").inner_text() == "erased"
    entries = page.locator("ol.timeline > li.tl-entry")
    assert entries.first.locator(".tl-cause").inner_text() == "erasure"
    assert entries.locator(".tl-tombstone").count() == entries.count() == 4
    assert "4417" not in page.content()
    assert page.get_by_role("button", name="Erase for good").count() == 0  # nothing left
    dashboard.shot("record-erased-timeline")


def test_erasing_a_subject_from_the_erase_page_removes_what_it_wrote(
    dashboard: Any,
    live: LiveServer,
    make_context: Callable[..., dict[str, Any]],
    make_key: Callable[..., str],
) -> None:
    ctx = make_context(subject="alice")
    bob = make_key(ctx["id"], ["memory_read", "memory_write"], subject="bob")
    with live.client(bob) as api:
        wrote = api.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I love zq7oolong tea."})
        assert wrote.status_code == 201, wrote.text
    dashboard.sign_in(ctx["key"])
    page = dashboard.page
    dashboard.open(f"/ui/c/{ctx['id']}")
    page.get_by_role("link", name="Erase", exact=True).click()
    page.get_by_label("Subject (principal)").fill("bob")
    page.get_by_label("Type the subject again to confirm").fill("bobby")
    page.get_by_role("button", name="Erase for good").click()
    assert "Nothing erased" in page.get_by_role("alert").inner_text()
    assert page.get_by_label("Subject (principal)").input_value() == "bob"
    page.get_by_label("Type the subject again to confirm").fill("bob")
    dashboard.shot("erase-subject")
    page.get_by_role("button", name="Erase for good").click()
    page.locator(".erasure-status").filter(has_text=re.compile("^done$")).wait_for(timeout=60_000)
    assert int(page.locator(".count-records").inner_text()) >= 1
    assert int(page.locator(".count-turns").inner_text()) == 1
    dashboard.shot("erasure-subject-done")
    with live.client(ctx["key"]) as api:
        found = api.post(f"/api/v1/{ctx['id']}/query", json={"query": "zq7oolong"}).json()
        assert found["hits"] == []
