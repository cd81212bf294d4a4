"""A signed-in key asking the dashboard for another Context's pages is refused as the API
refuses it (issue 23, item 11): 403, and nothing of that Context on the page. Before, the
pages whose panels tolerate a refused grant (the overview, the hygiene queue) answered
200 with an empty page."""

from __future__ import annotations

import json
import re

from tests.conftest import ADMIN_TOKEN
from tests.support.dashboard import csrf_of
from tests.support.replies import rows_reply, verdict

SECRET = "I'm Zelda. I work at Quokkacorp."
MARKERS = ("Zelda", "Quokkacorp", "quokka-plans")


def _filled(live, judged, scripted) -> dict[str, str]:
    """Another tenant's Context holding a memory, a judgement, a document and a scan."""
    scripted.respond_with("judge", verdict("pass"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    other = judged()
    cid = other["id"]
    with live.client(other["key"]) as api:
        assert api.post(f"/api/v1/{cid}/facts", json={"text": SECRET}).status_code == 201
        upload = api.post(
            f"/api/v1/{cid}/documents",
            files={"file": ("quokka-plans.txt", b"Quokkacorp plans.", "text/plain")},
        )
        assert upload.status_code == 202, upload.text
        scan = api.post(f"/api/v1/{cid}/hygiene/scan")
        assert scan.status_code == 202, scan.text
        [judgement, *_] = api.get(f"/api/v1/{cid}/judgements").json()["judgements"]
        found = api.post(f"/api/v1/{cid}/query", json={"query": "Quokkacorp"}).json()
    [record_id, *_] = re.findall(r'"id": "([0-9a-f-]{36})"', json.dumps(found))
    return {
        **other,
        "record": record_id,
        "judgement": judgement["id"],
        "run": scan.json()["runId"],
    }


def _leaks(resp, ids: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with one answer: not a 403, or something of the other Context in it."""
    where = f"{resp.request.method} {resp.request.url.path}"
    problems = [] if resp.status_code == 403 else [f"{where}: {resp.status_code}"]
    return problems + [f"{where}: shows {m}" for m in (*MARKERS, *ids) if m in resp.text]


def test_every_page_of_another_context_answers_403_and_shows_nothing_of_it(
    browser_less, judged, live, scripted
):
    mine = judged()
    other = _filled(live, judged, scripted)
    client = browser_less(mine["key"])
    base = f"/ui/c/{other['id']}"
    leaks = []
    for path in (
        "",
        "/judgements",
        f"/judgements/{other['judgement']}",
        "/dry-run",
        "/memories",
        f"/memories/{other['record']}",
        "/documents",
        "/audit",
        "/settings",
        "/hygiene",
        "/hygiene?status=resolved",
        f"/hygiene/runs/{other['run']}",
    ):
        leaks += _leaks(client.get(base + path), (other["key"],))
    assert not leaks, leaks
    # Their own Context still opens, for the same session.
    assert client.get(f"/ui/c/{mine['id']}").status_code == 200


def test_no_form_of_another_context_is_accepted_with_the_sessions_own_token(
    browser_less, judged, live, scripted
):
    mine = judged()
    other = _filled(live, judged, scripted)
    client = browser_less(mine["key"])
    token = csrf_of(client.get(f"/ui/c/{mine['id']}/hygiene").text)
    base = f"/ui/c/{other['id']}"
    leaks = _leaks(client.post(base + "/memories", data={"csrf": token, "q": "Quokkacorp"}))
    leaks += _leaks(client.post(base + "/hygiene/scan", data={"csrf": token}))
    leaks += _leaks(
        client.post(
            base + "/hygiene/challenge",
            data={"csrf": token, "record_id": other["record"], "reason": "mine now"},
        )
    )
    leaks += _leaks(
        client.post(
            base + "/documents",
            data={"csrf": token, "visibility": "shared"},
            files={"file": ("planted.txt", b"planted", "text/plain")},
        )
    )
    assert not leaks, leaks
    with live.client(other["key"]) as api:
        names = [
            d["filename"] for d in api.get(f"/api/v1/{other['id']}/documents").json()["documents"]
        ]
    assert names == ["quokka-plans.txt"]


def test_the_admin_token_still_opens_the_pages_it_administers_in_any_context(browser_less, judged):
    ctx = judged()
    client = browser_less(ADMIN_TOKEN)
    for path in ("", "/audit", "/settings", "/hygiene"):
        assert client.get(f"/ui/c/{ctx['id']}{path}").status_code == 200, path
