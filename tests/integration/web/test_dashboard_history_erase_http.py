"""The record page's timeline and the erase action over plain HTTP: the timeline pages past
50 revisions; an erasure needs the CSRF token, a confirmation that repeats the target and
the grant the erasure use case asks; a refused one erases nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.integration.review.helpers import command, create, ok
from tests.support.dashboard import csrf_of
from tests.support.live import LiveServer

Signed = Callable[[str], httpx.Client]


def _erasures(admin: httpx.Client, cid: str) -> list[dict[str, Any]]:
    events = admin.get(f"/api/v1/{cid}/audit", params={"action": "memory.erase"}).json()
    return list(events["events"])


def test_a_timeline_longer_than_a_page_links_to_its_older_revisions(
    browser_less: Signed, live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as api:
        rid, rev = create(api, "v0")
        for i in range(1, 51):  # 51 revisions: one more than a page
            done = ok(command(api, "update", record_id=rid, expected_revision=rev, content=f"v{i}"))
            rev = done["revision"]
    client = browser_less(ctx["key"])
    page = client.get(f"/ui/c/{ctx['id']}/memories/{rid}")
    assert page.status_code == 200, page.text
    assert page.text.count('class="tl-entry') == 50
    assert 'id="revision-51"' in page.text and 'id="revision-1"' not in page.text
    assert f"/memories/{rid}?visibility=shared&amp;cursor=2#history-heading" in page.text
    older = client.get(f"/ui/c/{ctx['id']}/memories/{rid}", params={"cursor": "2"})
    assert older.text.count('class="tl-entry') == 1 and 'id="revision-1"' in older.text
    assert "Older revisions" not in older.text
    bad = client.get(f"/ui/c/{ctx['id']}/memories/{rid}", params={"cursor": "x"})
    assert bad.status_code == 400


def test_an_erasure_needs_the_csrf_token_and_the_typed_target(
    browser_less: Signed,
    live: LiveServer,
    admin: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as api:
        rid, _ = create(api, "a note to keep")
    client = browser_less(ctx["key"])
    page = client.get(f"/ui/c/{ctx['id']}/memories/{rid}")
    assert "Erase for good" in page.text
    url = f"/ui/c/{ctx['id']}/erasures"
    form = {"target_kind": "records", "record_id": rid, "confirm": rid}
    assert client.post(url, data=form).status_code == 403  # no CSRF token
    csrf = csrf_of(page.text)
    wrong = client.post(url, data={**form, "confirm": rid.upper(), "csrf": csrf})
    assert wrong.status_code == 400 and "Nothing erased" in wrong.text
    empty = client.post(url, data={**form, "confirm": "", "csrf": csrf})
    assert empty.status_code == 400
    odd = client.post(url, data={**form, "target_kind": "scope", "csrf": csrf})
    assert odd.status_code == 400
    assert _erasures(admin, ctx["id"]) == []
    done = client.post(url, data={**form, "csrf": csrf}, follow_redirects=False)
    assert done.status_code == 303
    assert done.headers["location"].startswith(f"/ui/c/{ctx['id']}/erasures/")
    job = client.get(done.headers["location"])
    assert job.status_code == 200
    assert 'class="erasure-status"' in job.text and 'http-equiv="refresh"' in job.text
    assert len(_erasures(admin, ctx["id"])) == 1


def test_the_erase_action_is_the_erasure_use_cases_grant(
    browser_less: Signed,
    live: LiveServer,
    admin: httpx.Client,
    make_context: Callable[..., dict[str, Any]],
    make_key: Callable[..., str],
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as api:
        rid, _ = create(api, "a note")
    reviewer = make_key(ctx["id"], ["memory_read", "memory_review"], subject="rita")
    client = browser_less(reviewer)
    page = client.get(f"/ui/c/{ctx['id']}/memories/{rid}")
    assert page.status_code == 200 and "Erase for good" not in page.text
    csrf = csrf_of(page.text)
    url = f"/ui/c/{ctx['id']}/erasures"
    refused = client.post(
        url, data={"target_kind": "records", "record_id": rid, "confirm": rid, "csrf": csrf}
    )
    assert refused.status_code == 403 and "missing_grant" in refused.text
    narrow = make_key(ctx["id"], ["grant:manage"], subject="nora", scope="project/p1")
    client = browser_less(narrow)
    csrf = csrf_of(client.get(f"/ui/c/{ctx['id']}/erase").text)
    subject = client.post(
        url, data={"target_kind": "subject", "subject": "alice", "confirm": "alice", "csrf": csrf}
    )
    assert subject.status_code == 403  # a subject needs grant:manage over the whole Context
    assert _erasures(admin, ctx["id"]) == []
