"""The hygiene page in a real browser: a scan started from the page, its run followed to
the end, and the pair it queued resolved from the queue (screenshots under
test-output/screenshots/)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.integration.hygiene.conftest import SUPERSEDES_B, near_pair
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """Scans are jobs: an in-process worker, the adjudicator on the scripted model."""
    changes = scripted_models(
        scripted, model_adjudication="openai:strong", model_hygiene="openai:cheap"
    )
    return live_with(run_worker=True, **changes)


def test_a_pair_from_a_scan_is_resolved_from_the_queue_and_leaves_it(
    dashboard: Any,
    live: LiveServer,
    make_context: Callable[..., dict[str, Any]],
    scripted: ScriptedModelServer,
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as api:
        a, b = near_pair(api)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    page = dashboard.page
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/hygiene")
    page.get_by_role("heading", name="Hygiene queue").wait_for()
    page.get_by_role("button", name="Start a scan").click()
    page.wait_for_url(re.compile(r"/hygiene/runs/"))
    status = page.locator(".run-status")
    status.filter(has_text=re.compile("^done$")).wait_for(timeout=60_000)  # meta refresh
    assert page.locator(".count-queued").inner_text() == "1"
    dashboard.shot("hygiene-run")
    page.get_by_role("link", name=re.compile("Back to the hygiene queue")).click()
    pair = page.locator("article.pair")
    assert pair.count() == 1
    assert pair.locator(".pair-verdict").inner_text() == "supersedes"
    assert a in pair.inner_text() and b in pair.inner_text()
    dashboard.shot("hygiene")
    pair.get_by_role("button", name="Keep B", exact=True).click()
    assert page.get_by_role("status").inner_text() == "Item resolved: B kept."
    assert page.locator("article.pair").count() == 0
    dashboard.shot("hygiene-resolved")
    page.get_by_role("link", name="Resolved").click()
    assert page.locator("article.pair").count() == 1
