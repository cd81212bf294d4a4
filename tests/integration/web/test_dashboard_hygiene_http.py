"""The dashboard's hygiene page over plain HTTP: a scan started from the page and its run,
a pair resolved from the queue, a 409 shown in words, grants and CSRF on every form."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.integration.hygiene.conftest import SUPERSEDES_B, near_pair
from tests.integration.review.helpers import create
from tests.support.dashboard import csrf_of
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """Scans are jobs: an in-process worker, the adjudicator on the scripted model."""
    changes = scripted_models(
        scripted, model_adjudication="openai:strong", model_hygiene="openai:cheap"
    )
    return live_with(run_worker=True, **changes)


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


def page_of(client: httpx.Client, ctx: dict[str, Any], status: str = "pending") -> str:
    resp = client.get(f"/ui/c/{ctx['id']}/hygiene", params={"status": status})
    assert resp.status_code == 200, resp.text
    return resp.text


def item_ids(html: str) -> list[str]:
    return re.findall(r'aria-label="Queue item ([0-9a-f-]+)"', html)


def scan_from_the_page(client: httpx.Client, ctx: dict[str, Any]) -> str:
    """The scan form (rejudge ticked), then the run's page until the run ended."""
    base = f"/ui/c/{ctx['id']}/hygiene"
    started = client.post(
        f"{base}/scan", data={"csrf": csrf_of(page_of(client, ctx)), "rejudge": "on"}
    )
    assert started.status_code == 303, started.text
    run_url = started.headers["location"]
    assert run_url.startswith(f"{base}/runs/")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = client.get(run_url)
        assert run.status_code == 200, run.text
        status = re.search(r'class="run-status">(\w+)<', run.text)
        assert status
        if status.group(1) in ("done", "failed"):
            assert 'http-equiv="refresh"' not in run.text
            return run.text
        assert 'http-equiv="refresh"' in run.text  # the page follows the run by itself
        time.sleep(0.2)
    raise AssertionError("the hygiene run did not finish")


def test_a_scan_started_on_the_page_shows_its_run_and_the_pair_is_resolved_from_the_queue(
    live: LiveServer,
    ctx: dict[str, Any],
    browser_less: Callable[[str], httpx.Client],
    scripted: ScriptedModelServer,
) -> None:
    with live.client(ctx["key"]) as api:
        a, b = near_pair(api)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    client = browser_less(ctx["key"])
    run = scan_from_the_page(client, ctx)
    assert "done" in run and "re-judging pending pairs" in run
    assert re.search(r'class="count-queued">1<', run)
    overview = client.get(f"/ui/c/{ctx['id']}").text
    assert '<p class="big pending-pairs">1</p>' in overview
    html = page_of(client, ctx)
    [item] = item_ids(html)
    assert a in html and b in html
    assert "supersedes" in html and "b supersedes a" in html and "openai:strong" in html
    assert "The deploy key rotates every month." in html
    url = f"/ui/c/{ctx['id']}/hygiene/queue/{item}/resolve"
    done = client.post(url, data={"csrf": csrf_of(html), "resolution": "keep_b"})
    assert done.status_code == 200 and "Item resolved: B kept." in done.text
    assert item_ids(done.text) == []
    assert item in item_ids(page_of(client, ctx, "resolved"))
    again = client.post(url, data={"csrf": csrf_of(html), "resolution": "keep_a"})
    assert again.status_code == 409
    assert 'role="alert"' in again.text and "this item is already resolved" in again.text


def test_a_restore_with_nothing_to_undo_is_a_409_in_words(
    live: LiveServer, ctx: dict[str, Any], browser_less: Callable[[str], httpx.Client]
) -> None:
    with live.client(ctx["key"]) as api:
        a, _b = near_pair(api)
    client = browser_less(ctx["key"])
    token = csrf_of(page_of(client, ctx))
    resp = client.post(f"/ui/c/{ctx['id']}/hygiene/memories/{a}/restore", data={"csrf": token})
    assert resp.status_code == 409
    assert "no automatic resolution of this memory to undo" in resp.text
    assert "nothing_to_restore" in resp.text


def test_a_challenge_from_the_page_queues_the_memory_and_keep_both_settles_it(
    live: LiveServer, ctx: dict[str, Any], browser_less: Callable[[str], httpx.Client]
) -> None:
    with live.client(ctx["key"]) as api:
        a, _b = near_pair(api)
    client = browser_less(ctx["key"])
    url = f"/ui/c/{ctx['id']}/hygiene/challenge"
    token = csrf_of(page_of(client, ctx))
    empty = client.post(url, data={"csrf": token, "record_id": a, "reason": ""})
    assert empty.status_code == 400 and '<code class="field">reason</code>' in empty.text
    done = client.post(url, data={"csrf": token, "record_id": a, "reason": "moved on"})
    assert done.status_code == 200 and "Challenge queued" in done.text
    [item] = item_ids(done.text)
    assert "Keep A" not in done.text  # a challenge is settled with keep both
    kept = client.post(
        f"/ui/c/{ctx['id']}/hygiene/queue/{item}/resolve",
        data={"csrf": token, "resolution": "keep_both"},
    )
    assert kept.status_code == 200 and item_ids(kept.text) == []
    record = client.get(f"/ui/c/{ctx['id']}/memories/{a}", params={"visibility": "shared"})
    assert record.status_code == 200, record.text
    assert f'name="record_id" value="{a}"' in record.text  # the record page's challenge form


def test_every_hygiene_form_refuses_a_missing_or_forged_csrf_token_and_changes_nothing(
    live: LiveServer, ctx: dict[str, Any], browser_less: Callable[[str], httpx.Client]
) -> None:
    with live.client(ctx["key"]) as api:
        a, _b = near_pair(api)
        challenged = api.post(
            f"/api/v1/{ctx['id']}/hygiene/memories/{a}/challenge", json={"reason": "wrong"}
        )
        item = challenged.json()["item"]["id"]
    client = browser_less(ctx["key"])
    base = f"/ui/c/{ctx['id']}/hygiene"
    forms = {
        f"{base}/queue/{item}/resolve": {"resolution": "keep_both"},
        f"{base}/memories/{a}/restore": {},
        f"{base}/challenge": {"record_id": a, "reason": "again"},
        f"{base}/scan": {},
    }
    for url, data in forms.items():
        for csrf in ({}, {"csrf": "forged"}):
            resp = client.post(url, data={**data, **csrf})
            assert resp.status_code == 403, (url, resp.text)
            assert "security token" in resp.text
    assert item_ids(page_of(client, ctx)) == [item]
    with live.client(ctx["key"]) as api:
        runs = api.get(f"/api/v1/{ctx['id']}/audit").json()
    assert not any(e["action"] == "hygiene.scan" for e in runs.get("events", []))


def test_hygiene_forms_need_memory_review_and_a_challenge_memory_write_or_review(
    live: LiveServer,
    ctx: dict[str, Any],
    browser_less: Callable[[str], httpx.Client],
    make_key: Callable[..., str],
) -> None:
    with live.client(ctx["key"]) as api:
        a, _b = near_pair(api)
        item = api.post(
            f"/api/v1/{ctx['id']}/hygiene/memories/{a}/challenge", json={"reason": "wrong"}
        ).json()["item"]["id"]
    base = f"/ui/c/{ctx['id']}/hygiene"
    reader = browser_less(make_key(ctx["id"], ["memory_read"], subject="rita"))
    html = page_of(reader, ctx)
    assert "The queue is not shown" in html and item_ids(html) == []
    token = csrf_of(html)
    refused = {
        f"{base}/queue/{item}/resolve": {"resolution": "keep_both"},
        f"{base}/memories/{a}/restore": {},
        f"{base}/challenge": {"record_id": a, "reason": "no"},
        f"{base}/scan": {},
    }
    for url, data in refused.items():
        resp = reader.post(url, data={"csrf": token, **data})
        assert resp.status_code == 403, (url, resp.text)
        assert "Not allowed" in resp.text
    assert reader.get(f"{base}/runs/{item}").status_code == 403
    writer = browser_less(make_key(ctx["id"], ["memory_read", "memory_write"], subject="wes"))
    token = csrf_of(page_of(writer, ctx))
    resp = writer.post(f"{base}/challenge", data={"csrf": token, "record_id": a, "reason": "x"})
    assert resp.status_code == 200 and "Already awaiting a person" in resp.text
    resolve = writer.post(
        f"{base}/queue/{item}/resolve", data={"csrf": token, "resolution": "keep_both"}
    )
    assert resolve.status_code == 403


def _attributes_duplicate(request: Any) -> dict[str, Any]:
    if request.user.count("kind attribute") == 2:
        return {"verdict": "duplicate", "superseding": None, "confidence": 0.97}
    return {"verdict": "unrelated", "superseding": None, "confidence": 0.9}


def test_an_automatic_resolution_is_restored_from_the_resolved_tab(
    live: LiveServer,
    ctx: dict[str, Any],
    browser_less: Callable[[str], httpx.Client],
    scripted: ScriptedModelServer,
) -> None:
    """The same slot captured in two scopes (the newer below the older, where the
    replacement rule lets it retire the older): the cheap path auto-resolves the duplicate,
    and the resolved tab offers its restore."""
    scripted.respond_with("hygiene", _attributes_duplicate)  # the writes' own runs judge too
    with live.client(ctx["key"]) as api:
        for text, scope in (
            ("I'm Alice, CTO at Acme.", []),
            ("I'm Alice, CEO at Acme.", ["team/a"]),
        ):
            body = {"text": text, **({"scope": scope} if scope else {})}
            resp = api.post(f"/api/v1/{ctx['id']}/facts", json=body)
            assert resp.status_code == 201, resp.text
    client = browser_less(ctx["key"])
    scan_from_the_page(client, ctx)  # (the writes' own runs may have resolved it first)
    resolved = page_of(client, ctx, "resolved")
    restores = re.findall(r'action="(/ui/c/[^"]+/hygiene/memories/([0-9a-f-]+)/restore)"', resolved)
    assert restores, resolved
    url, loser = restores[0]
    done = client.post(url, data={"csrf": csrf_of(resolved)})
    assert done.status_code == 200, done.text
    assert f"Memory {loser} restored: live again" in done.text
    again = client.post(url, data={"csrf": csrf_of(resolved)})
    assert again.status_code == 409 and "nothing_to_restore" in again.text


def test_the_queue_page_holds_twenty_items_and_links_to_the_older_ones(
    live: LiveServer, ctx: dict[str, Any], browser_less: Callable[[str], httpx.Client]
) -> None:
    with live.client(ctx["key"]) as api:
        for n in range(21):
            record, _ = create(api, f"Fact number {n} about the deploy key.")
            resp = api.post(
                f"/api/v1/{ctx['id']}/hygiene/memories/{record}/challenge", json={"reason": "?"}
            )
            assert resp.status_code == 200, resp.text
    client = browser_less(ctx["key"])
    first = page_of(client, ctx)
    assert len(item_ids(first)) == 20
    older = re.search(r'<a href="([^"]+)" rel="next">', first)
    assert older and "status=pending" in older.group(1)
    rest = client.get(older.group(1).replace("&amp;", "&"))
    assert rest.status_code == 200
    assert len(item_ids(rest.text)) == 1
    assert not set(item_ids(rest.text)) & set(item_ids(first))
