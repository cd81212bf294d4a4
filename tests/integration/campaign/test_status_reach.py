"""Every status /openapi.json documents is reachable (issue 15, standing campaign).

The triples (method, path, status) are read from the live app's own document; each has a
recipe that sends real HTTP requests to a live server (real PostgreSQL, real keys, a
scripted model server) and must get exactly that status, and the error code the recipe
names. Most recipes are generic, derived from the document and the auth matrix's rows
(401 without or with a bad credential, 403 across Contexts or grants, 404 for a random id,
400 for a body of the wrong type or a malformed id, 413 one byte past the operation's
`x-max-body-bytes`, 429 and 503 with the live admission counters set at their limit);
the rest are written for one operation. A documented status without a recipe fails, and
so does a recipe for a status the document does not list: a new route or a newly
documented answer needs its recipe here (and its row in the auth matrix).
"""

from __future__ import annotations

import copy
import io
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from pydantic import SecretStr

from memwarden.api.openapi import PUBLIC_PATHS
from memwarden.models.rule_extractor import extract_facts
from memwarden.models.sanitize import unframe
from memwarden.settings import Settings
from tests.conftest import ADMIN_TOKEN, ALL_GRANTS
from tests.integration.test_auth_matrix import OTHER_GRANT, ROUTES, ZERO, Route
from tests.support.live import LiveServer
from tests.support.pg import PgCluster
from tests.support.scripted_model import RecordedRequest, Reply, ScriptedModelServer
from tests.support.scripted_model import scripted_models as pointed_at

Triple = tuple[str, str, int]
METHODS = ("get", "post", "put", "patch", "delete")
CTX = "/api/v1/{context_id}"
BAD_KEY = "mwk_" + "0" * 32 + "_nope"
SCOPE = {"project_id": "p", "mission_id": None, "agent_id": None, "visibility": "shared"}


# --- the document -------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    doc: dict[str, Any]
    route: Route | None  # the auth matrix's row: a valid request and the grant it needs

    @property
    def capability(self) -> str | None:
        return self.route[3] if self.route else None

    def url(self, cid: str) -> str:
        """The matrix's URL on Context `cid`."""
        assert self.route is not None
        return self.route[1].format(cid=cid)

    def has_id(self) -> bool:
        """The matrix's request names a resource by a placeholder id (ZERO)."""
        if self.route is None:
            return False
        _, path, body, _ = self.route
        return ZERO in path or (body is not None and ZERO in json.dumps(body, default=str))


def operations(spec: dict[str, Any]) -> list[Operation]:
    found = []
    for path, item in spec["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        for method, doc in item.items():
            if method not in METHODS:
                continue
            row = next(
                (
                    r
                    for r in ROUTES
                    if r[0] == method.upper() and pattern.match(r[1].format(cid=ZERO).split("?")[0])
                ),
                None,
            )
            found.append(Operation(method.upper(), path, doc, row))
    return found


def documented(spec: dict[str, Any]) -> list[Triple]:
    """Every (method, path, status) the document lists, in its order."""
    return [
        (op.method, op.path, int(code))
        for op in operations(spec)
        for code in op.doc.get("responses", {})
        if code.isdigit()
    ]


# --- recipes ------------------------------------------------------------------------


@dataclass(frozen=True)
class Recipe:
    name: str
    send: Callable[[World, Operation], httpx.Response]
    code: str | None = None  # the error code the answer must carry
    named: bool = False  # the status's documented description names `code`


SPECIFIC: dict[Triple, list[Recipe]] = {}


def recipe(
    method: str, path: str, status: int, code: str | None = None, *, named: bool = False
) -> Callable[[Callable[[World], httpx.Response]], Callable[[World], httpx.Response]]:
    """Register a recipe written for one triple (it replaces the generic ones)."""

    def register(fn: Callable[[World], httpx.Response]) -> Callable[[World], httpx.Response]:
        SPECIFIC.setdefault((method, path, status), []).append(
            Recipe(fn.__name__, lambda w, _op: fn(w), code, named)
        )
        return fn

    return register


def recipes_for(op: Operation, status: int) -> list[Recipe]:
    specific = SPECIFIC.get((op.method, op.path, status))
    if specific is not None:
        return specific
    if op.route is None:  # a route the auth matrix does not know: nothing generic fits
        return []
    generic = GENERIC.get(status)
    return generic(op) if generic else []


def uncovered(spec: dict[str, Any]) -> list[Triple]:
    """Documented triples with no recipe."""
    ops = {(op.method, op.path): op for op in operations(spec)}
    return [t for t in documented(spec) if not recipes_for(ops[t[:2]], t[2])]


def undocumented(spec: dict[str, Any]) -> list[Triple]:
    """Recipes for triples the document does not list (an answer it does not describe)."""
    listed = set(documented(spec))
    return sorted(t for t in SPECIFIC if t not in listed)


# --- the world the recipes run in -----------------------------------------------------


@dataclass
class Tenant:
    id: str
    key: str


@dataclass
class World:
    server: LiveServer
    http: httpx.Client
    spec: dict[str, Any]
    a: Tenant  # every grant, offline models, no judge
    b: Tenant  # another Context: its id is what A's key may not touch
    judged: Tenant  # the judge on (the deployment's, scripted); a warn holds the write
    reflective: Tenant  # a chat model of its own, no memories, the rollup pass off
    narrow: dict[str, str] = field(default_factory=dict)  # grant -> A's key with only it

    def send(self, method: str, url: str, token: str | None, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.request(method, url, headers=headers, **kw)

    def context(self, name: str, config: dict[str, Any] | None = None) -> Tenant:
        made = self.send("POST", "/api/v1/contexts", ADMIN_TOKEN, json={"name": name})
        assert made.status_code == 201, made.text
        cid = made.json()["id"]
        if config:
            patched = self.send("PATCH", f"/api/v1/contexts/{cid}/config", ADMIN_TOKEN, json=config)
            assert patched.status_code == 200, patched.text
        return Tenant(cid, self.key(cid, ALL_GRANTS, "alice"))

    def key(self, cid: str, grants: list[str], subject: str) -> str:
        body = {"subject": subject, "grants": grants}
        issued = self.send("POST", f"/api/v1/contexts/{cid}/keys", ADMIN_TOKEN, json=body)
        assert issued.status_code == 201, issued.text
        return str(issued.json()["key"])

    def ok(self, resp: httpx.Response, status: int = 200) -> dict[str, Any]:
        assert resp.status_code == status, (resp.request.url, resp.status_code, resp.text)
        return dict(resp.json())


def base(
    w: World,
    op: Operation,
    token: str | None,
    cid: str | None = None,
    **changes: Any,
) -> httpx.Response:
    """The auth matrix's request for `op` on Context `cid` (A's by default)."""
    assert op.route is not None
    method, path, body, _ = op.route
    url = path.format(cid=cid or w.a.id)
    if body is not None and "__file__" in body:
        return w.send(method, url, token, files={"file": body["__file__"]}, **changes)
    return w.send(method, url, token, json=body, **changes)


def own_token(w: World, op: Operation) -> str:
    """The credential the operation is meant for: the admin token or A's full key."""
    return ADMIN_TOKEN if op.capability == "admin" else w.a.key


def _quiet(check: Callable[[], bool]) -> None:
    """Wait until no request of the last one is still counted (its `leave` ran)."""
    deadline = time.monotonic() + 5
    while not check():
        assert time.monotonic() < deadline, "admission counters never settled"
        time.sleep(0.01)


def context_busy(w: World, op: Operation) -> httpx.Response:
    """A's in-flight count at its budget: any request with A's key is refused."""
    admission = w.server.services.admission
    cid = uuid.UUID(w.a.id)
    _quiet(lambda: admission.per_context.get(cid, 0) == 0)
    budget = admission.context_max_in_flight
    if not budget:
        admission.context_max_in_flight = budget = 1
    admission.per_context[cid] += budget
    try:
        return base(w, op, w.a.key)
    finally:
        admission.per_context.pop(cid, None)
        admission.context_max_in_flight = w.server.services.settings.context_max_in_flight


def overloaded(w: World, op: Operation) -> httpx.Response:
    """The process's in-flight count at its budget: the next request is shed."""
    admission = w.server.services.admission
    _quiet(lambda: admission.in_flight == 0)
    budget = admission.max_in_flight or 1
    admission.max_in_flight = budget
    admission.in_flight += budget
    try:
        return base(w, op, own_token(w, op))
    finally:
        admission.in_flight -= budget
        admission.max_in_flight = w.server.services.settings.max_in_flight


def _success(op: Operation) -> list[Recipe]:
    if op.has_id():
        return []  # a real resource is needed: a specific recipe
    return [Recipe("the matrix's valid request", lambda w, o: base(w, o, own_token(w, o)))]


def _malformed(op: Operation) -> list[Recipe]:
    """A JSON body of the wrong type, else a malformed id in the path, else a number
    that is not one in the query: the first the document offers."""
    content = op.doc.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        return [
            Recipe(
                "a JSON array for the body",
                lambda w, o: w.send(o.method, o.url(w.a.id), own_token(w, o), json=[]),
                "invalid_request",
            )
        ]
    params = op.doc.get("parameters", [])
    for param in params:
        if param["in"] == "path" and param.get("schema", {}).get("format") == "uuid":
            name = param["name"]

            def bad_id(w: World, o: Operation, name: str = name) -> httpx.Response:
                values = {p["name"]: w.a.id for p in params if p["in"] == "path"}
                values[name] = "not-a-uuid"
                return w.send(o.method, o.path.format(**values), own_token(w, o))

            return [Recipe(f"a malformed {name}", bad_id, "invalid_request")]
    for param in params:
        if param["in"] == "query" and _is_integer(param.get("schema", {})):
            name = param["name"]

            def not_a_number(w: World, o: Operation, name: str = name) -> httpx.Response:
                return base(w, o, own_token(w, o), params={name: "x"})

            return [Recipe(f"{name}=x", not_a_number, "invalid_request")]
    return []


def _is_integer(schema: dict[str, Any]) -> bool:
    return any(s.get("type") == "integer" for s in schema.get("anyOf", [schema]))


def _unauthenticated(op: Operation) -> list[Recipe]:
    return [
        Recipe("no credential", lambda w, o: base(w, o, None), "unauthorized"),
        Recipe("an unknown key", lambda w, o: base(w, o, BAD_KEY), "unauthorized"),
    ]


def _forbidden(op: Operation) -> list[Recipe]:
    if op.capability == "admin":
        return [Recipe("a Context key", lambda w, o: base(w, o, w.a.key))]
    if "{cid}" in (op.route or ("", ""))[1]:
        return [Recipe("another Context's id", lambda w, o: base(w, o, w.a.key, cid=w.b.id))]
    grant = OTHER_GRANT[op.capability or ""]
    return [Recipe(f"a key with only {grant}", lambda w, o: base(w, o, w.narrow[grant]))]


def _not_found(op: Operation) -> list[Recipe]:
    if op.has_id():
        return [Recipe("a random id", lambda w, o: base(w, o, w.a.key), None)]
    if op.path.startswith("/api/v1/contexts/{context_id}"):
        return [Recipe("a random Context", lambda w, o: base(w, o, ADMIN_TOKEN, cid=ZERO))]
    return []


def _too_large(op: Operation) -> list[Recipe]:
    body = op.doc.get("requestBody")
    if body is None:
        return []
    limit = int(body["x-max-body-bytes"])
    media = next(iter(body["content"]))
    if media.startswith("multipart/"):
        media += "; boundary=statusreach"

    def send(w: World, o: Operation) -> httpx.Response:
        url = o.url(w.a.id)
        headers = {"Content-Type": media, "Authorization": f"Bearer {own_token(w, o)}"}
        return w.http.request(o.method, url, content=b"x" * (limit + 1), headers=headers)

    return [Recipe(f"{limit + 1} bytes", send, "payload_too_large")]


GENERIC: dict[int, Callable[[Operation], list[Recipe]]] = {
    200: _success,
    201: _success,
    202: _success,
    400: _malformed,
    401: _unauthenticated,
    403: _forbidden,
    404: _not_found,
    413: _too_large,
    429: lambda op: [Recipe("A at its in-flight budget", context_busy, "context_busy", True)],
    503: lambda op: [Recipe("the process at its budget", overloaded, "overloaded", True)],
}


# --- the scripted models --------------------------------------------------------------

FLAKY = re.compile(r"FLAKY-[0-9a-f]{12}")
GONE = re.compile(r"GONE-[0-9a-f]{12}")
UNREACHABLE = "UNREACHABLE-MODEL"
DOWN_CHAT = "down-chat"  # a chat model that answers every call with a 500
_flaked: set[str] = set()
_flaked_lock = threading.Lock()


def _first_time(marker: str) -> bool:
    with _flaked_lock:
        first = marker not in _flaked
        _flaked.add(marker)
    return first


def _extraction(request: RecordedRequest) -> Reply:
    """The offline rules' answer, except that text carrying a new FLAKY marker gets an
    unusable reply the first time (its window fails; a reprocess then succeeds), a GONE
    marker the same unusable reply and then a 500 on every later call (its reprocess
    cannot reach the model), and UNREACHABLE a 500 on every call."""
    text = unframe(request.user)
    if UNREACHABLE in text:
        return Reply.error(500)
    gone = GONE.search(text)
    if gone:
        return Reply.text("not JSON") if _first_time(gone.group()) else Reply.error(500)
    marker = FLAKY.search(text)
    if marker and _first_time(marker.group()):
        return Reply.text("not JSON")
    return Reply.json(extract_facts(text))


def _judge(request: RecordedRequest) -> Reply:
    if "REFUSE-THIS" in request.user:
        return Reply.json({"verdict": "fail", "reasons": ["policy"]})
    if "HOLD-THIS" in request.user:
        return Reply.json({"verdict": "warn", "reasons": ["policy"]})
    return Reply.json({"verdict": "pass", "reasons": []})


def _hygiene(request: RecordedRequest) -> Reply:
    """Two provisional attributes of one slot are duplicates; `slow-hygiene` takes 0.5 s."""
    if request.user.count("kind attribute") == 2:
        reply = Reply.json({"verdict": "duplicate", "superseding": None, "confidence": 0.97})
    else:
        reply = Reply.json({"verdict": "unrelated", "superseding": None, "confidence": 0.9})
    return reply.after(0.5) if request.model == "slow-hygiene" else reply


def _model(name: str) -> dict[str, str]:
    return {"provider": "openai", "model": name}


@pytest.fixture(scope="module")
def scripted_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        server.respond_with("extraction", _extraction)
        server.respond_with("judge", _judge)
        server.respond_with("hygiene", _hygiene)
        server.respond_with(DOWN_CHAT, Reply.error(500))
        yield server


@pytest.fixture(scope="module")
def live(
    cluster: PgCluster,
    tmp_path_factory: pytest.TempPathFactory,
    scripted_server: ScriptedModelServer,
) -> Iterator[LiveServer]:
    """One server for the module: the in-process worker; extraction (the offline rules'
    answers, so that a window can be made to fail) and the judge (the request path uses
    the deployment's) on the scripted server; every other deployment model off."""
    name = cluster.create_database()
    settings = Settings(
        database_url=cluster.url_for(name),
        admin_token=SecretStr(ADMIN_TOKEN),
        data_dir=tmp_path_factory.mktemp("statusreach"),
        pool_timeout_s=30.0,
        **pointed_at(
            scripted_server,
            model_extraction="openai:extraction-model",
            model_judge="openai:judge",
        ),
    )
    server = LiveServer(settings, run_worker=True).start()
    yield server
    server.stop()
    cluster.drop_database(name)


@pytest.fixture(scope="module")
def world(live: LiveServer) -> Iterator[World]:
    with httpx.Client(base_url=live.url, timeout=60) as http:
        spec = http.get("/openapi.json").json()
        w = World(live, http, spec, Tenant("", ""), Tenant("", ""), Tenant("", ""), Tenant("", ""))
        w.a = w.context("a")
        w.b = w.context("b")
        judge = {"enabled": True, "rows": False, "on_warn": "hold"}
        w.judged = w.context("judged", {"judge": judge})
        w.reflective = w.context(
            "reflective",
            {"models": {"chat": _model("chat")}, "passes": {"rollup": {"enabled": False}}},
        )
        w.narrow = {g: w.key(w.a.id, [g], f"only-{g.replace(':', '-')}") for g in ALL_GRANTS}
        facts = w.send("POST", f"/api/v1/{w.a.id}/facts", w.a.key, json={"text": TASTE})
        w.ok(facts, 201)
        yield w


TASTE = "My favourite food is durian."


# --- helpers the specific recipes share -------------------------------------------------


def _create(w: World, text: str = "Bees hum in June.") -> tuple[str, int]:
    command = {"contract_version": 1, "op": "create", "content": text}
    made = w.ok(w.send("POST", "/api/v1/memory/commands", w.a.key, json=_in(command=command)))
    return str(made["record_id"]), int(made["revision"])


def _in(**fields: Any) -> dict[str, Any]:
    return {"scope": SCOPE, **fields}


def _v1(**fields: Any) -> dict[str, Any]:
    return {"contract_version": 1, "scope": SCOPE, **fields}


def _vector(axis: int) -> list[float]:
    values = [0.0] * 384
    values[axis] = 1.0
    return values


def _decide(w: World, record_id: str, revision: int) -> httpx.Response:
    command = {
        "contract_version": 1,
        "record_id": record_id,
        "expected_revision": revision,
        "disposition": "approved",
        "evidence_ref": "case://reach/1",
    }
    return w.send("POST", "/api/v1/memory/reviews", w.a.key, json=_in(command=command))


def _flaky() -> str:
    return f"FLAKY-{uuid.uuid4().hex[:12]}"


def _gone() -> str:
    return f"GONE-{uuid.uuid4().hex[:12]}"


def _audited(w: World, tenant: Tenant, action: str, target: str | None = None) -> int:
    """How many audit events of `tenant` are `action` (on `target`, when named): every
    write is audited in its transaction, so none means nothing was written."""
    url = f"/api/v1/{tenant.id}/audit"
    events = w.ok(w.send("GET", url, tenant.key, params={"action": action}))["events"]
    return sum(1 for e in events if e["action"] == action and target in (None, e["target_id"]))


def _down_chat(w: World) -> Tenant:
    """A new Context whose chat model answers every call with a 500."""
    return w.context("down-chat", {"models": {"chat": _model(DOWN_CHAT)}})


def _upload(w: World, text: str) -> str:
    files = {"file": ("notes.txt", io.BytesIO(text.encode()), "text/plain")}
    made = w.ok(w.send("POST", f"/api/v1/{w.a.id}/documents", w.a.key, files=files), 202)
    return str(made["id"])


def _processed(w: World, document_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        doc = w.ok(w.send("GET", f"/api/v1/{w.a.id}/documents/{document_id}", w.a.key))
        if doc["status"] in ("processed", "failed"):
            return doc
        assert time.monotonic() < deadline, f"document still {doc['status']}"
        time.sleep(0.05)


def _held(w: World) -> str:
    """A new held write in the judged Context; its judgement's id."""
    cid, key = w.judged.id, w.judged.key
    wrote = w.ok(w.send("POST", f"/api/v1/{cid}/facts", key, json={"text": "HOLD-THIS now"}), 201)
    assert wrote["held"] is True, wrote
    entries = w.ok(w.send("GET", f"/api/v1/{cid}/judgements", key))["judgements"]
    return next(str(e["id"]) for e in entries if e["turn_id"] == wrote["turnId"])


def _passed(w: World) -> str:
    cid, key = w.judged.id, w.judged.key
    wrote = w.ok(w.send("POST", f"/api/v1/{cid}/facts", key, json={"text": "I like tea."}), 201)
    entries = w.ok(w.send("GET", f"/api/v1/{cid}/judgements", key))["judgements"]
    return next(str(e["id"]) for e in entries if e["turn_id"] == wrote["turnId"])


def _challenged(w: World) -> str:
    record_id, _ = _create(w, "The office is in Porto.")
    url = f"/api/v1/{w.a.id}/hygiene/memories/{record_id}/challenge"
    flagged = w.ok(w.send("POST", url, w.a.key, json={"reason": "moved"}))
    return str(flagged["item"]["id"])


def _scan_until_done(w: World, tenant: Tenant) -> dict[str, Any]:
    started = w.ok(w.send("POST", f"/api/v1/{tenant.id}/hygiene/scan", tenant.key, json={}), 202)
    deadline = time.monotonic() + 60
    while True:
        url = f"/api/v1/{tenant.id}/hygiene/runs/{started['runId']}"
        run = w.ok(w.send("GET", url, tenant.key))
        if run["status"] in ("done", "failed"):
            return run
        assert time.monotonic() < deadline, "the hygiene run did not finish"
        time.sleep(0.05)


def _provisional_pair(w: World, tenant: Tenant) -> None:
    """One slot captured in two scopes, so reconciliation leaves both provisional: the older
    at the key's scope, the newer below it (the replacement rule lets it retire the older)."""
    for text, scope in (
        ("I'm Alice, CTO at Acme.", None),
        ("I'm Alice, CEO at Acme.", "team/a"),
    ):
        body: dict[str, Any] = {"text": text, **({"scope": [scope]} if scope else {})}
        w.ok(w.send("POST", f"/api/v1/{tenant.id}/facts", tenant.key, json=body), 201)


# --- the specific recipes ---------------------------------------------------------------


@recipe("GET", "/health", 200)
def health_ok(w: World) -> httpx.Response:
    return w.send("GET", "/health", None)


@recipe("GET", "/health", 503)
def health_with_a_failing_model_provider(w: World) -> httpx.Response:
    """The provider check's cached answer says the model endpoint failed: degraded."""
    checks = w.server.services.provider_check
    checks.put("models", {"status": "error", "error": "ConnectError"})
    try:
        return w.send("GET", "/health", None)
    finally:
        checks.clear()


@recipe("GET", "/metrics", 200)
def metrics_ok(w: World) -> httpx.Response:
    return w.send("GET", "/metrics", None)


@recipe("GET", "/api/v1/contexts/{context_id}", 200)
def context_read_by_its_key(w: World) -> httpx.Response:
    return w.send("GET", f"/api/v1/contexts/{w.a.id}", w.a.key)


@recipe("GET", "/api/v1/whoami", 400, "context_key_required")
def whoami_with_the_admin_token(w: World) -> httpx.Response:
    return w.send("GET", "/api/v1/whoami", ADMIN_TOKEN)


@recipe("DELETE", "/api/v1/contexts/{context_id}/keys/{key_id}", 200)
def key_revoked(w: World) -> httpx.Response:
    body = {"subject": "short-lived", "grants": ["memory_read"]}
    issued = w.ok(w.send("POST", f"/api/v1/contexts/{w.a.id}/keys", ADMIN_TOKEN, json=body), 201)
    return w.send("DELETE", f"/api/v1/contexts/{w.a.id}/keys/{issued['id']}", ADMIN_TOKEN)


@recipe("POST", "/api/v1/memory/commands", 404, "not_found")
def update_of_a_random_record(w: World) -> httpx.Response:
    command = {
        "contract_version": 1,
        "op": "update",
        "record_id": ZERO,
        "expected_revision": 1,
        "content": "x",
    }
    return w.send("POST", "/api/v1/memory/commands", w.a.key, json=_in(command=command))


@recipe("POST", "/api/v1/memory/commands", 409, "stale_revision")
def update_at_a_stale_revision(w: World) -> httpx.Response:
    record_id, revision = _create(w)
    command = {
        "contract_version": 1,
        "op": "update",
        "record_id": record_id,
        "expected_revision": revision + 5,
        "content": "Bees hum in July.",
    }
    return w.send("POST", "/api/v1/memory/commands", w.a.key, json=_in(command=command))


@recipe("POST", "/api/v1/memory/read", 200)
def record_read(w: World) -> httpx.Response:
    record_id, _ = _create(w)
    return w.send("POST", "/api/v1/memory/read", w.a.key, json=_v1(record_id=record_id))


@recipe("POST", "/api/v1/memory/embeddings", 200)
def vector_attached(w: World) -> httpx.Response:
    record_id, revision = _create(w)
    body = _v1(record_id=record_id, revision=revision, vector=_vector(3))
    return w.send("POST", "/api/v1/memory/embeddings", w.a.key, json=body)


@recipe("POST", "/api/v1/memory/embeddings", 409, "embedding_exists")
def vector_attached_twice(w: World) -> httpx.Response:
    record_id, revision = _create(w)
    body = _v1(record_id=record_id, revision=revision, vector=_vector(4))
    w.ok(w.send("POST", "/api/v1/memory/embeddings", w.a.key, json=body))
    return w.send("POST", "/api/v1/memory/embeddings", w.a.key, json=body)


@recipe("POST", "/api/v1/memory/reviews", 200)
def review_decided(w: World) -> httpx.Response:
    record_id, revision = _create(w)
    return _decide(w, record_id, revision)


@recipe("POST", "/api/v1/memory/reviews", 409)
def review_at_a_stale_revision(w: World) -> httpx.Response:
    record_id, revision = _create(w)
    return _decide(w, record_id, revision + 5)


@recipe("POST", "/api/v1/memory/reviews/state", 200)
def review_state(w: World) -> httpx.Response:
    record_id, _ = _create(w)
    return w.send("POST", "/api/v1/memory/reviews/state", w.a.key, json=_v1(record_id=record_id))


@recipe("POST", "/api/v1/memory/reviews/read", 200)
def review_receipt_read(w: World) -> httpx.Response:
    record_id, revision = _create(w)
    receipt = w.ok(_decide(w, record_id, revision))["receipt"]
    body = _v1(record_id=record_id, revision=receipt["revision"])
    return w.send("POST", "/api/v1/memory/reviews/read", w.a.key, json=body)


@recipe("POST", "/api/v1/memory/reviews/eligibility", 200)
def review_eligibility(w: World) -> httpx.Response:
    record_id, _ = _create(w)
    body = _v1(record_id=record_id)
    return w.send("POST", "/api/v1/memory/reviews/eligibility", w.a.key, json=body)


@recipe("GET", f"{CTX}/judgements/{{judgement_id}}", 200)
def judgement_read(w: World) -> httpx.Response:
    judgement = _passed(w)
    return w.send("GET", f"/api/v1/{w.judged.id}/judgements/{judgement}", w.judged.key)


@recipe("POST", f"{CTX}/judgements/{{judgement_id}}/override", 200)
def judgement_overridden(w: World) -> httpx.Response:
    url = f"/api/v1/{w.judged.id}/judgements/{_passed(w)}/override"
    return w.send("POST", url, w.judged.key, json={"verdict": "warn"})


@recipe(
    "POST", f"{CTX}/judgements/{{judgement_id}}/override", 502, "model_provider_error", named=True
)
def replay_with_the_extraction_model_down(w: World) -> httpx.Response:
    """A refused write kept for replay; the replay's extraction cannot reach its model, so
    the override is not recorded and the request stays kept."""
    judge = {"enabled": True, "rows": False, "retain_inputs": True}
    kept = w.context("kept", {"judge": judge})
    body = {"text": f"REFUSE-THIS: Marguerite keeps bees. {UNREACHABLE}"}
    refused = w.send("POST", f"/api/v1/{kept.id}/facts", kept.key, json=body)
    assert refused.status_code == 422, refused.text
    (entry,) = w.ok(w.send("GET", f"/api/v1/{kept.id}/judgements", kept.key))["judgements"]
    url = f"/api/v1/{kept.id}/judgements/{entry['id']}"
    resp = w.send("POST", f"{url}/override", kept.key, json={"verdict": "pass", "replay": True})
    after = w.ok(w.send("GET", url, kept.key))
    assert after["retained"] is True and after["override"] is None, after
    return resp


for _action in ("approve", "reject"):

    @recipe("POST", f"{CTX}/judgements/{{judgement_id}}/{_action}", 200)
    def hold_decided(w: World, action: str = _action) -> httpx.Response:
        url = f"/api/v1/{w.judged.id}/judgements/{_held(w)}/{action}"
        return w.send("POST", url, w.judged.key)

    @recipe("POST", f"{CTX}/judgements/{{judgement_id}}/{_action}", 409, "not_held")
    def nothing_held(w: World, action: str = _action) -> httpx.Response:
        url = f"/api/v1/{w.judged.id}/judgements/{_passed(w)}/{action}"
        return w.send("POST", url, w.judged.key)


@recipe("POST", f"{CTX}/facts", 404, "not_found")
def facts_in_a_random_session(w: World) -> httpx.Response:
    body = {"text": "I like chess.", "sessionId": str(uuid.uuid4())}
    return w.send("POST", f"/api/v1/{w.a.id}/facts", w.a.key, json=body)


for _route in ("facts", "chat", "chat/stream"):

    @recipe("POST", f"{CTX}/{_route}", 422, "judge_refused")
    def judge_refuses(w: World, route: str = _route) -> httpx.Response:
        body = (
            {"text": "REFUSE-THIS please"}
            if route == "facts"
            else {"message": "REFUSE-THIS please", "remember": False}
        )
        return w.send("POST", f"/api/v1/{w.judged.id}/{route}", w.judged.key, json=body)


for _route in ("chat", "chat/stream"):

    @recipe("POST", f"{CTX}/{_route}", 404, "not_found")
    def chat_in_a_random_session(w: World, route: str = _route) -> httpx.Response:
        body = {"message": "What do I like?", "sessionId": str(uuid.uuid4())}
        return w.send("POST", f"/api/v1/{w.a.id}/{route}", w.a.key, json=body)


@recipe("POST", f"{CTX}/turns/{{turn_id}}/reprocess", 200)
def failed_turn_reprocessed(w: World) -> httpx.Response:
    body = {"text": f"Marguerite keeps bees. {_flaky()}"}
    wrote = w.ok(w.send("POST", f"/api/v1/{w.a.id}/facts", w.a.key, json=body), 201)
    assert wrote["extraction"]["chunkOnly"] is True, wrote
    return w.send("POST", f"/api/v1/{w.a.id}/turns/{wrote['turnId']}/reprocess", w.a.key)


@recipe("POST", f"{CTX}/turns/{{turn_id}}/reprocess", 409, "nothing_to_reprocess")
def sound_turn_reprocessed(w: World) -> httpx.Response:
    body = {"text": "Marguerite sells honey."}
    wrote = w.ok(w.send("POST", f"/api/v1/{w.a.id}/facts", w.a.key, json=body), 201)
    return w.send("POST", f"/api/v1/{w.a.id}/turns/{wrote['turnId']}/reprocess", w.a.key)


@recipe("POST", f"{CTX}/facts", 502, "model_provider_error", named=True)
def facts_with_the_extraction_model_down(w: World) -> httpx.Response:
    fresh = w.context("unextracted")
    body = {"text": f"Marguerite keeps bees. {UNREACHABLE}"}
    resp = w.send("POST", f"/api/v1/{fresh.id}/facts", fresh.key, json=body)
    assert _audited(w, fresh, "facts.write") == 0, f"written: {resp.text}"
    return resp


@recipe("POST", f"{CTX}/turns/{{turn_id}}/reprocess", 502, "model_provider_error", named=True)
def failed_turn_reprocessed_with_the_model_down(w: World) -> httpx.Response:
    body = {"text": f"Marguerite keeps bees. {_gone()}"}
    wrote = w.ok(w.send("POST", f"/api/v1/{w.a.id}/facts", w.a.key, json=body), 201)
    assert wrote["extraction"]["chunkOnly"] is True, wrote
    turn = wrote["turnId"]
    resp = w.send("POST", f"/api/v1/{w.a.id}/turns/{turn}/reprocess", w.a.key)
    assert _audited(w, w.a, "turn.reprocess", turn) == 0, f"written: {resp.text}"
    return resp


for _route in ("chat", "chat/stream"):

    @recipe("POST", f"{CTX}/{_route}", 502, "model_provider_error", named=True)
    def chat_with_the_chat_model_down(w: World, route: str = _route) -> httpx.Response:
        """The message is remembered before the answer is asked for, and stays."""
        down = _down_chat(w)
        body = {"message": "I keep bees on the roof."}
        resp = w.send("POST", f"/api/v1/{down.id}/{route}", down.key, json=body)
        assert _audited(w, down, "chat.write") == 1, f"not remembered: {resp.text}"
        return resp

    @recipe("POST", f"{CTX}/{_route}", 502, "model_provider_error", named=True)
    def chat_with_the_extraction_model_down(w: World, route: str = _route) -> httpx.Response:
        """Remembering the message needs the extraction model: nothing is written."""
        fresh = w.context("unremembered")
        body = {"message": f"I keep bees on the roof. {UNREACHABLE}"}
        resp = w.send("POST", f"/api/v1/{fresh.id}/{route}", fresh.key, json=body)
        assert _audited(w, fresh, "chat.write") == 0, f"written: {resp.text}"
        return resp


@recipe("GET", f"{CTX}/profile", 200)
def profile_of_the_user(w: World) -> httpx.Response:
    return w.send("GET", f"/api/v1/{w.a.id}/profile", w.a.key, params={"entity": "user"})


@recipe("GET", f"{CTX}/profile", 404, "not_found")
def profile_of_a_stranger(w: World) -> httpx.Response:
    entity = f"stranger{uuid.uuid4().hex[:8]}"
    return w.send("GET", f"/api/v1/{w.a.id}/profile", w.a.key, params={"entity": entity})


@recipe("GET", f"{CTX}/documents/{{document_id}}", 200)
def document_read(w: World) -> httpx.Response:
    return w.send("GET", f"/api/v1/{w.a.id}/documents/{_upload(w, 'Notes.')}", w.a.key)


@recipe("DELETE", f"{CTX}/documents/{{document_id}}", 200)
def document_deleted(w: World) -> httpx.Response:
    return w.send("DELETE", f"/api/v1/{w.a.id}/documents/{_upload(w, 'Notes.')}", w.a.key)


@recipe("POST", f"{CTX}/documents/{{document_id}}/reprocess", 200)
def failed_document_reprocessed(w: World) -> httpx.Response:
    document_id = _upload(w, f"Marguerite keeps bees on the roof. {_flaky()}")
    done = _processed(w, document_id)
    assert done["extraction"]["chunkOnly"] is True, done
    return w.send("POST", f"/api/v1/{w.a.id}/documents/{document_id}/reprocess", w.a.key)


@recipe(
    "POST", f"{CTX}/documents/{{document_id}}/reprocess", 502, "model_provider_error", named=True
)
def failed_document_reprocessed_with_the_model_down(w: World) -> httpx.Response:
    document_id = _upload(w, f"Marguerite keeps bees on the roof. {_gone()}")
    done = _processed(w, document_id)
    assert done["extraction"]["chunkOnly"] is True, done
    resp = w.send("POST", f"/api/v1/{w.a.id}/documents/{document_id}/reprocess", w.a.key)
    assert _audited(w, w.a, "document.reprocess", document_id) == 0, f"written: {resp.text}"
    return resp


@recipe("POST", f"{CTX}/documents", 415, "unsupported_media_type", named=True)
def upload_of_an_unsupported_type(w: World) -> httpx.Response:
    """Bytes that are neither text nor a PDF or DOCX: refused, nothing stored."""
    fresh = w.context("untyped")
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
    files = {"file": ("photo.png", io.BytesIO(png), "image/png")}
    resp = w.send("POST", f"/api/v1/{fresh.id}/documents", fresh.key, files=files)
    listed = w.ok(w.send("GET", f"/api/v1/{fresh.id}/documents", fresh.key))
    assert listed["documents"] == [], listed
    return resp


@recipe("POST", f"{CTX}/documents/{{document_id}}/reprocess", 409)
def sound_document_reprocessed(w: World) -> httpx.Response:
    """Not processed yet (`not_processed`) or with nothing failed (`nothing_to_reprocess`)."""
    document_id = _upload(w, "Marguerite sells honey in May.")
    return w.send("POST", f"/api/v1/{w.a.id}/documents/{document_id}/reprocess", w.a.key)


@recipe("POST", f"{CTX}/reflect", 200)
def reflection_with_a_chat_model(w: World) -> httpx.Response:
    """The Context names its own chat model; with no memories nothing is sent to it."""
    return w.send("POST", f"/api/v1/{w.reflective.id}/reflect", w.reflective.key, json={})


@recipe("POST", f"{CTX}/reflect", 503, "reflection_model_unavailable", named=True)
def reflection_without_a_chat_model(w: World) -> httpx.Response:
    return w.send("POST", f"/api/v1/{w.a.id}/reflect", w.a.key, json={})


@recipe("POST", f"{CTX}/reflect", 502, "model_provider_error", named=True)
def reflection_with_the_chat_model_down(w: World) -> httpx.Response:
    """A memory to reflect on, so the chat model is called."""
    down = _down_chat(w)
    w.ok(w.send("POST", f"/api/v1/{down.id}/facts", down.key, json={"text": TASTE}), 201)
    resp = w.send("POST", f"/api/v1/{down.id}/reflect", down.key, json={})
    assert _audited(w, down, "reflection.write") == 0, f"written: {resp.text}"
    return resp


SPECIFIC[("POST", f"{CTX}/reflect", 503)].insert(
    0, Recipe("the process at its budget", overloaded, "overloaded", True)
)


@recipe("POST", f"{CTX}/hygiene/scan", 409, "run_in_progress")
def scan_while_one_runs(w: World) -> httpx.Response:
    """The first scan waits 0.5 s a pair on its (scripted) hygiene model; the second comes now."""
    slow = w.context("slow-hygiene", {"models": {"hygiene": _model("slow-hygiene")}})
    _provisional_pair(w, slow)
    w.ok(w.send("POST", f"/api/v1/{slow.id}/hygiene/scan", slow.key, json={}), 202)
    return w.send("POST", f"/api/v1/{slow.id}/hygiene/scan", slow.key, json={})


@recipe("GET", f"{CTX}/hygiene/runs/{{run_id}}", 200)
def scan_run_read(w: World) -> httpx.Response:
    fresh = w.context("scanned")
    started = w.ok(w.send("POST", f"/api/v1/{fresh.id}/hygiene/scan", fresh.key, json={}), 202)
    return w.send("GET", f"/api/v1/{fresh.id}/hygiene/runs/{started['runId']}", fresh.key)


@recipe("POST", f"{CTX}/hygiene/queue/{{item_id}}/resolve", 200)
def challenge_resolved(w: World) -> httpx.Response:
    url = f"/api/v1/{w.a.id}/hygiene/queue/{_challenged(w)}/resolve"
    return w.send("POST", url, w.a.key, json={"resolution": "keep_both"})


@recipe("POST", f"{CTX}/hygiene/queue/{{item_id}}/resolve", 409, "already_decided")
def challenge_resolved_twice(w: World) -> httpx.Response:
    url = f"/api/v1/{w.a.id}/hygiene/queue/{_challenged(w)}/resolve"
    w.ok(w.send("POST", url, w.a.key, json={"resolution": "keep_both"}))
    return w.send("POST", url, w.a.key, json={"resolution": "keep_both"})


@recipe("POST", f"{CTX}/hygiene/memories/{{record_id}}/restore", 200)
def auto_resolution_undone(w: World) -> httpx.Response:
    """A scan auto-resolves a provisional duplicate (the hygiene model on the scripted
    server); the loser, named by the audit log, is restored."""
    tidy = w.context("tidy", {"models": {"hygiene": _model("hygiene")}})
    _provisional_pair(w, tidy)
    _scan_until_done(w, tidy)
    deadline = time.monotonic() + 30
    while True:  # the scan, or the worker's own pass after the writes, resolved it
        audit = w.send(
            "GET", f"/api/v1/{tidy.id}/audit", tidy.key, params={"action": "hygiene.auto"}
        )
        events = w.ok(audit)["events"]
        if events or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    loser = events[0]["target_id"]
    return w.send("POST", f"/api/v1/{tidy.id}/hygiene/memories/{loser}/restore", tidy.key)


@recipe("POST", f"{CTX}/hygiene/memories/{{record_id}}/restore", 409, "nothing_to_restore")
def nothing_to_restore(w: World) -> httpx.Response:
    record_id, _ = _create(w)
    return w.send("POST", f"/api/v1/{w.a.id}/hygiene/memories/{record_id}/restore", w.a.key)


@recipe("POST", f"{CTX}/hygiene/memories/{{record_id}}/challenge", 200)
def memory_challenged(w: World) -> httpx.Response:
    record_id, _ = _create(w)
    url = f"/api/v1/{w.a.id}/hygiene/memories/{record_id}/challenge"
    return w.send("POST", url, w.a.key, json={"reason": "out of date"})


@recipe("POST", f"{CTX}/passes/{{stage}}/run", 404, "unknown_pass")
def unknown_pass(w: World) -> httpx.Response:
    return w.send("POST", f"/api/v1/{w.a.id}/passes/nosuchpass/run", w.a.key)


@recipe("POST", f"{CTX}/passes/{{stage}}/run", 409, "pass_disabled")
def switched_off_pass(w: World) -> httpx.Response:
    return w.send("POST", f"/api/v1/{w.reflective.id}/passes/rollup/run", w.reflective.key)


@recipe("GET", f"{CTX}/passes/runs/{{run_id}}", 200)
def pass_run_read(w: World) -> httpx.Response:
    started = w.ok(w.send("POST", f"/api/v1/{w.a.id}/passes/gist/run", w.a.key), 202)
    return w.send("GET", f"/api/v1/{w.a.id}/passes/runs/{started['runId']}", w.a.key)


@recipe("POST", f"{CTX}/erasures", 404, "record_not_found")
def erasure_of_an_unknown_record(w: World) -> httpx.Response:
    body = {"recordIds": [str(uuid.uuid4())]}
    return w.send("POST", f"/api/v1/{w.a.id}/erasures", w.a.key, json=body)


@recipe("GET", f"{CTX}/erasures/{{erasure_id}}", 200)
def erasure_read(w: World) -> httpx.Response:
    body = {"scopePrefix": "nothing/here"}
    started = w.ok(w.send("POST", f"/api/v1/{w.a.id}/erasures", w.a.key, json=body), 202)
    return w.send("GET", f"/api/v1/{w.a.id}/erasures/{started['erasureId']}", w.a.key)


@recipe("GET", f"{CTX}/imports/{{import_id}}", 200)
def import_read(w: World) -> httpx.Response:
    route = f"/api/v1/{w.a.id}/imports"
    sent = w.send("POST", route, w.a.key, params={"source_dir": "/src"}, content='"I like tea."')
    started = w.ok(sent, 202)
    return w.send("GET", f"{route}/{started['importId']}", w.a.key)


@recipe("GET", f"{CTX}/memories/{{record_id}}/history", 200)
def record_history_read(w: World) -> httpx.Response:
    command = {"contract_version": 1, "op": "create", "content": "A note with a history."}
    body = {"scope": SCOPE, "command": command}
    made = w.ok(w.send("POST", "/api/v1/memory/commands", w.a.key, json=body))
    return w.send("GET", f"/api/v1/{w.a.id}/memories/{made['record_id']}/history", w.a.key)


def _webhook(w: World) -> str:
    body = {"url": "http://127.0.0.1:9/hook", "events": ["created"]}
    return str(w.ok(w.send("POST", f"/api/v1/{w.a.id}/webhooks", w.a.key, json=body), 201)["id"])


@recipe("GET", f"{CTX}/webhooks/{{webhook_id}}", 200)
def webhook_read(w: World) -> httpx.Response:
    return w.send("GET", f"/api/v1/{w.a.id}/webhooks/{_webhook(w)}", w.a.key)


@recipe("PATCH", f"{CTX}/webhooks/{{webhook_id}}", 200)
def webhook_paused(w: World) -> httpx.Response:
    url = f"/api/v1/{w.a.id}/webhooks/{_webhook(w)}"
    return w.send("PATCH", url, w.a.key, json={"active": False})


@recipe("DELETE", f"{CTX}/webhooks/{{webhook_id}}", 200)
def webhook_deleted(w: World) -> httpx.Response:
    return w.send("DELETE", f"/api/v1/{w.a.id}/webhooks/{_webhook(w)}", w.a.key)


@recipe("POST", f"{CTX}/webhooks/{{webhook_id}}/rotate-secret", 200)
def webhook_secret_rotated(w: World) -> httpx.Response:
    return w.send("POST", f"/api/v1/{w.a.id}/webhooks/{_webhook(w)}/rotate-secret", w.a.key)


@recipe("GET", f"{CTX}/webhooks/{{webhook_id}}/deliveries", 200)
def webhook_deliveries(w: World) -> httpx.Response:
    return w.send("GET", f"/api/v1/{w.a.id}/webhooks/{_webhook(w)}/deliveries", w.a.key)


# --- the checks -------------------------------------------------------------------------


def _violations(spec: dict[str, Any], op: Operation, resp: httpx.Response) -> list[str]:
    """The body against the schema documented for its status (JSON answers only)."""
    documented_answer = op.doc.get("responses", {}).get(str(resp.status_code), {})
    schema = documented_answer.get("content", {}).get("application/json", {}).get("schema")
    if not schema or "json" not in resp.headers.get("content-type", ""):
        return []
    validator = Draft202012Validator({**schema, "components": spec.get("components", {})})
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(resp.json())]


def _error_code(resp: httpx.Response) -> str | None:
    try:
        body = resp.json()
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("code") if isinstance(error, dict) else None


def _attempt(w: World, op: Operation, status: int, each: Recipe) -> str | None:
    """Why the recipe missed its status (None when it got it)."""
    label = f"{op.method} {op.path} {status} ({each.name})"
    try:
        resp = each.send(w, op)
    except (AssertionError, httpx.HTTPError, KeyError, StopIteration) as exc:
        return f"{label}: the recipe broke: {type(exc).__name__}: {exc}"
    if resp.status_code != status:
        return f"{label}: got {resp.status_code}: {resp.text[:300]}"
    got = _error_code(resp)
    if each.code is not None and got != each.code:
        return f"{label}: error code {got!r}, expected {each.code!r}"
    if status >= 400 and op.path not in PUBLIC_PATHS and got is None:
        return f"{label}: not an error body: {resp.text[:200]}"
    if each.named:
        description = op.doc.get("responses", {}).get(str(status), {}).get("description", "")
        if f"`{each.code}`" not in description:
            return f"{label}: the documented description does not name `{each.code}`"
    violations = _violations(w.spec, op, resp)
    if violations:
        return f"{label}: body does not match the documented schema: {violations[:3]}"
    return None


@pytest.mark.timeout(300)
def test_every_documented_status_is_reached_by_its_recipe(world: World) -> None:
    spec = world.spec
    by_key = {(op.method, op.path): op for op in operations(spec)}
    failures = [f"{m} {p} {s}: no recipe" for m, p, s in uncovered(spec)]
    reached = 0
    for method, path, status in documented(spec):
        op = by_key[(method, path)]
        for each in recipes_for(op, status):
            problem = _attempt(world, op, status, each)
            if problem:
                failures.append(problem)
            else:
                reached += 1
    # a recipe for an answer the document does not list: the document is wrong
    for method, path, status in undocumented(spec):
        failures.append(f"{method} {path} {status}: a recipe, but the document omits it")
    assert not failures, f"{len(failures)} of the documented statuses:\n" + "\n".join(failures)
    assert reached >= len(documented(spec))


def test_a_documented_status_without_a_recipe_is_named(live: LiveServer) -> None:
    """The enumerator's self-test: a new status on an existing operation and a new
    operation are both reported, by triple; the real document has no such gap."""
    spec = copy.deepcopy(live.app.openapi())
    assert uncovered(spec) == []
    spec["paths"][f"{CTX}/state"]["get"]["responses"]["418"] = {"description": "teapot"}
    spec["paths"][f"{CTX}/novelty"] = {
        "post": {"responses": {"200": {"description": "new"}, "401": {"description": "no"}}}
    }
    assert uncovered(spec) == [
        ("GET", f"{CTX}/state", 418),
        ("POST", f"{CTX}/novelty", 200),
        ("POST", f"{CTX}/novelty", 401),
    ]
