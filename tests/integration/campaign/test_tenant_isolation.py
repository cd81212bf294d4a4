"""Tenant isolation, generated from the interfaces (issue 15, standing campaign).

Context A holds one of everything (a turn and its session, a memory record, a document, a
judgement, a key), every piece of content carrying a marker. Context B's key, with every
grant and even the same subject, then asks for each of them through every HTTP route that
takes an id (the auth matrix's ROUTES, so a new route is covered by adding its row there)
and every MCP tool (a new tool without a row here fails): each answer must be exactly the
answer for a random id, and no answer B gets anywhere (recall, state, profile, search,
documents, the change feed, sessions) may carry A's markers.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from memwarden.settings import Settings
from tests.conftest import ADMIN_TOKEN
from tests.integration.mcp.conftest import http_session
from tests.integration.test_auth_matrix import ROUTES, ZERO, Route
from tests.support.live import LiveServer
from tests.support.pg import PgCluster

ALL = ["memory_read", "memory_write", "memory_review", "grant:manage"]
SCOPE = {"project_id": "p", "mission_id": None, "agent_id": None, "visibility": "shared"}
CARD = "4111 1111 1111 1111"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


ID_KINDS = (
    ("/keys/", "key"),
    ("/judgements/", "judgement"),
    ("/turns/", "turn"),
    ("/documents/", "document"),
    ("/hygiene/runs/", "hygiene_run"),
    ("/hygiene/queue/", "conflict"),
    ("/hygiene/memories/", "record"),
    ("/passes/runs/", "pass_run"),
    ("/webhooks/", "webhook"),
    ("/erasures/", "erasure"),
    ("/imports/", "import"),
    ("/memories/", "record"),  # a record's history
)


def kind_of(route: Route) -> str | None:
    """Which of A's resources stands in for the route's placeholder id ("unknown" for a
    new kind of id: test_every_id_route_names_its_resource lists those)."""
    _, path, body, _ = route
    if ZERO in path:
        return next((kind for part, kind in ID_KINDS if part in path), "unknown")
    if body and "__file__" not in body and ZERO in json.dumps(body):
        return "record"
    return None


ID_ROUTES = [r for r in ROUTES if kind_of(r) not in (None, "unknown")]


def test_every_id_route_names_its_resource() -> None:
    """A new route with an id in the auth matrix needs its kind in ID_KINDS (and a
    resource of that kind in `tenants`), or it would go unprobed."""
    unknown = [f"{r[0]} {r[1]}" for r in ROUTES if kind_of(r) == "unknown"]
    assert not unknown, f"add these routes' id kinds to ID_KINDS: {unknown}"


@pytest.fixture(scope="module")
def live(cluster: PgCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module, with its in-process worker (A's document is processed)."""
    name = cluster.create_database()
    settings = Settings(
        database_url=cluster.url_for(name),
        admin_token=ADMIN_TOKEN,
        data_dir=tmp_path_factory.mktemp("isolation"),
    )
    server = LiveServer(settings, run_worker=True).start()
    yield server
    server.stop()
    cluster.drop_database(name)


@pytest.fixture(scope="module")
def tenants(live: LiveServer) -> dict[str, Any]:
    """A with one of everything; B with every grant and the same subject."""
    marker = f"isolationmarker{uuid.uuid4().hex[:10]}"
    out: dict[str, Any] = {"marker": marker}
    with live.client(ADMIN_TOKEN) as admin:
        for name in ("a", "b"):
            cid = admin.post("/api/v1/contexts", json={"name": f"tenant-{name}"}).json()["id"]
            issued = admin.post(
                f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": ALL}
            ).json()
            out[name] = {"id": cid, "key": issued["key"], "key_id": issued["id"]}
        a = out["a"]
        admin.patch(f"/api/v1/contexts/{a['id']}/config", json={"judge": {"enabled": True}})
    with live.client(a["key"]) as client:
        written = client.post(
            f"/api/v1/{a['id']}/facts",
            json={"text": f"I'm Alice. I love {marker}.", "visibility": "private"},
        ).json()
        a["turn"], a["session"] = written["turnId"], written["sessionId"]
        refused = client.post(f"/api/v1/{a['id']}/facts", json={"text": f"card {CARD}"})
        assert refused.status_code == 422, refused.text
        a["judgement"] = client.get(f"/api/v1/{a['id']}/judgements").json()["judgements"][0]["id"]
        command = {"contract_version": 1, "op": "create", "content": f"note {marker}"}
        created = client.post("/api/v1/memory/commands", json={"scope": SCOPE, "command": command})
        a["record"] = created.json()["record_id"]
        upload = client.post(
            f"/api/v1/{a['id']}/documents",
            files={"file": ("a.txt", f"Alice keeps {marker} bees.".encode(), "text/plain")},
        )
        a["document"] = upload.json()["id"]
        flagged = client.post(
            f"/api/v1/{a['id']}/hygiene/memories/{a['record']}/challenge",
            json={"reason": "wrong against the world"},
        )
        assert flagged.status_code == 200, flagged.text
        a["conflict"] = flagged.json()["item"]["id"]
        scan = client.post(f"/api/v1/{a['id']}/hygiene/scan", json={"rejudge": False})
        assert scan.status_code == 202, scan.text
        a["hygiene_run"] = scan.json()["runId"]
        run = client.post(f"/api/v1/{a['id']}/passes/rollup/run")
        assert run.status_code == 202, run.text
        a["pass_run"] = run.json()["runId"]
        hook = client.post(
            f"/api/v1/{a['id']}/webhooks",
            json={"url": "http://127.0.0.1:9/hook", "events": ["created"], "description": marker},
        )
        assert hook.status_code == 201, hook.text
        a["webhook"] = hook.json()["id"]
        erasure = client.post(f"/api/v1/{a['id']}/erasures", json={"scopePrefix": "nothing/here"})
        assert erasure.status_code == 202, erasure.text
        a["erasure"] = erasure.json()["erasureId"]
        imported = client.post(
            f"/api/v1/{a['id']}/imports",
            params={"source_dir": "/src/a"},
            content=json.dumps({"text": f"I like {marker}."}),
        )
        assert imported.status_code == 202, imported.text
        a["import"] = imported.json()["importId"]
        for _ in range(120):
            doc = client.get(f"/api/v1/{a['id']}/documents/{a['document']}").json()
            if doc["status"] in ("processed", "failed"):
                break
            time.sleep(0.25)
    a["ids"] = {
        "turn": a["turn"],
        "judgement": a["judgement"],
        "record": a["record"],
        "document": a["document"],
        "key": a["key_id"],
        "conflict": a["conflict"],
        "hygiene_run": a["hygiene_run"],
        "pass_run": a["pass_run"],
        "webhook": a["webhook"],
        "erasure": a["erasure"],
        "import": a["import"],
    }
    return out


def _normalised(resp: httpx.Response) -> tuple[int, str]:
    return resp.status_code, UUID.sub("<id>", resp.text)


def _call(client: httpx.Client, route: Route, cid: str, rid: str) -> httpx.Response:
    method, path, body, _ = route
    url = path.format(cid=cid).replace(ZERO, rid)
    if body is not None and "__file__" in body:
        return client.request(method, url, files={"file": body["__file__"]})
    payload = json.loads(json.dumps(body).replace(ZERO, rid)) if body is not None else None
    return client.request(method, url, json=payload)


@pytest.mark.parametrize("route", ID_ROUTES, ids=lambda r: f"{r[0]} {r[1]}")
def test_another_tenants_id_is_answered_exactly_as_a_random_id(
    route: Route, live: LiveServer, tenants: dict[str, Any]
) -> None:
    a, b = tenants["a"], tenants["b"]
    theirs = a["ids"][kind_of(route)]
    with live.client(b["key"]) as client:
        got = _call(client, route, b["id"], theirs)
        random = _call(client, route, b["id"], str(uuid.uuid4()))
    assert _normalised(got) == _normalised(random)
    assert tenants["marker"] not in got.text


READS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "/api/v1/{cid}/query", {"query": "Alice bees note"}),
    ("GET", "/api/v1/{cid}/query?query=Alice+bees+note", None),
    ("GET", "/api/v1/{cid}/profile?entity=Alice", None),
    ("GET", "/api/v1/{cid}/state", None),
    ("GET", "/api/v1/{cid}/documents", None),
    ("GET", "/api/v1/{cid}/judgements", None),
    ("GET", "/api/v1/{cid}/audit", None),
    ("GET", "/api/v1/memory/changes", None),
    ("POST", "/api/v1/memory/search", {"contract_version": 1, "scope": SCOPE, "query": "note"}),
]


@pytest.mark.parametrize("read", READS, ids=lambda r: f"{r[0]} {r[1]}")
def test_no_read_of_another_tenant_shows_its_content_or_ids(
    read: tuple[str, str, dict[str, Any] | None], live: LiveServer, tenants: dict[str, Any]
) -> None:
    a, b, marker = tenants["a"], tenants["b"], tenants["marker"]
    method, path, body = read
    with live.client(b["key"]) as client:
        resp = client.request(method, path.format(cid=b["id"]), json=body)
    # An entity B never named is B's own 404, as for any unknown name.
    assert resp.status_code == 200 or ("profile" in path and resp.status_code == 404), resp.text
    assert marker not in resp.text
    assert not [i for i in a["ids"].values() if i in resp.text]


def test_the_change_feed_is_numbered_per_context(live: LiveServer, tenants: dict[str, Any]) -> None:
    b = tenants["b"]
    with live.client(b["key"]) as client:
        client.post(f"/api/v1/{b['id']}/facts", json={"text": "I'm Bob. I love tea."})
        items = client.get("/api/v1/memory/changes").json()["changes"]
    assert items and min(int(i["seq"]) for i in items) == 1


def test_another_tenants_session_is_a_new_session_not_theirs(
    live: LiveServer, tenants: dict[str, Any]
) -> None:
    a, b = tenants["a"], tenants["b"]
    with live.client(b["key"]) as client:
        got = client.post(
            f"/api/v1/{b['id']}/facts", json={"text": "I like chess.", "sessionId": a["session"]}
        )
        random = client.post(
            f"/api/v1/{b['id']}/facts",
            json={"text": "I like chess.", "sessionId": str(uuid.uuid4())},
        )
    assert _normalised(got) == _normalised(random)
    assert got.status_code != 201 or got.json()["sessionId"] != a["session"]


# Every MCP tool: its arguments, with "{id}" where one of A's ids goes (and its kind).
MCP_TOOLS: dict[str, tuple[str | None, dict[str, Any]]] = {
    "remember": (None, {"text": "I like chess."}),
    "recall": (None, {"query": "Alice bees note"}),
    "profile": (None, {"entity": "Alice"}),
    "state": (None, {}),
    "chat": (None, {"message": "What do I love?", "remember": False}),
    "reprocess": ("turn", {"id": "{id}"}),
    "memory_command": (
        "record",
        {
            "scope": SCOPE,
            "command": {
                "contract_version": 1,
                "op": "update",
                "record_id": "{id}",
                "expected_revision": 1,
                "content": "x",
            },
        },
    ),
    "memory_read": ("record", {"contract_version": 1, "scope": SCOPE, "record_id": "{id}"}),
    "memory_search": (None, {"contract_version": 1, "scope": SCOPE, "query": "note"}),
    "review_decide": (
        "record",
        {
            "scope": SCOPE,
            "command": {
                "contract_version": 1,
                "record_id": "{id}",
                "expected_revision": 1,
                "disposition": "approved",
                "evidence_ref": "case://1",
            },
        },
    ),
    "review_state": ("record", {"contract_version": 1, "scope": SCOPE, "record_id": "{id}"}),
    "review_read": (
        "record",
        {"contract_version": 1, "scope": SCOPE, "record_id": "{id}", "revision": 1},
    ),
    "review_eligibility": (
        "record",
        {"contract_version": 1, "scope": SCOPE, "record_id": "{id}"},
    ),
    "judgements_list": (None, {}),
    "judgement_show": ("judgement", {"judgement_id": "{id}"}),
    "judgement_override": ("judgement", {"judgement_id": "{id}", "verdict": "pass"}),
    "judgement_approve": ("judgement", {"judgement_id": "{id}"}),
    "judgement_reject": ("judgement", {"judgement_id": "{id}"}),
    "judgements_dry_run": ("judgement", {"addendum": "", "judgementIds": ["{id}"]}),
    "scan_hygiene": (None, {"rejudge": False}),
    "hygiene_run": ("hygiene_run", {"run_id": "{id}"}),
    "hygiene_queue": (None, {}),
    "resolve_conflict": ("conflict", {"item_id": "{id}", "resolution": "keep_both"}),
    "restore_memory": ("record", {"record_id": "{id}"}),
    "challenge": ("record", {"record_id": "{id}", "reason": "wrong"}),
    "run_pass": (None, {"stage": "rollup"}),
    "get_pass_run": ("pass_run", {"runId": "{id}"}),
    "erase": ("record", {"record_ids": ["{id}"]}),
    "erasure": ("erasure", {"erasure_id": "{id}"}),
    "export_subject": (None, {"subject": "alice"}),
    "history": ("record", {"record_id": "{id}"}),
}


def _fill(args: dict[str, Any], rid: str) -> dict[str, Any]:
    return json.loads(json.dumps(args).replace("{id}", rid))


def _mcp_calls(live: LiveServer, key: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def scenario() -> list[Any]:
        async with http_session(live.url, key) as client:
            return [await client.call_tool(tool, args) for tool, args in calls]

    return asyncio.run(scenario())


def _mcp_text(result: Any) -> str:
    return UUID.sub("<id>", "".join(c.text for c in result.content if c.type == "text"))


def test_every_mcp_tool_has_a_row(live: LiveServer, tenants: dict[str, Any]) -> None:
    async def scenario() -> list[str]:
        async with http_session(live.url, tenants["b"]["key"]) as client:
            return [t.name for t in (await client.list_tools()).tools]

    listed = asyncio.run(scenario())
    assert sorted(set(listed) - set(MCP_TOOLS)) == [], "MCP tools missing from MCP_TOOLS"


@pytest.mark.parametrize("tool", sorted(MCP_TOOLS))
def test_an_mcp_tool_answers_another_tenants_id_as_a_random_one(
    tool: str, live: LiveServer, tenants: dict[str, Any]
) -> None:
    a, b, marker = tenants["a"], tenants["b"], tenants["marker"]
    kind, args = MCP_TOOLS[tool]
    theirs = a["ids"][kind] if kind else str(uuid.uuid4())
    got, random = _mcp_calls(
        live,
        b["key"],
        [(tool, _fill(args, theirs)), (tool, _fill(args, str(uuid.uuid4())))],
    )
    text = "".join(c.text for c in got.content if c.type == "text")
    assert marker not in text
    assert not [i for i in a["ids"].values() if i in text and i != theirs]
    if kind is not None:
        assert got.is_error == random.is_error
        assert _mcp_text(got) == _mcp_text(random)
