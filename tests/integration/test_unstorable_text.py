"""Text PostgreSQL cannot store, control characters in names, and the admin token where a
Context key is needed: each is a 400 (or 403) naming the field, never a 500 (issue 15, #10)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

NUL = "a\x00b"
SURROGATE = "a\ud800b"
SCOPE = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "shared"}


def send(client: httpx.Client, method: str, path: str, body: Any = None, **kw: Any):
    """JSON written by hand: ASCII escapes let a lone surrogate travel as JSON allows."""
    if body is None:
        return client.request(method, path, **kw)
    content = json.dumps(body).encode("ascii")
    headers = {"Content-Type": "application/json"}
    return client.request(method, path, content=content, headers=headers, **kw)


def note(content: str) -> dict[str, Any]:
    command = {"contract_version": 1, "op": "create", "content": content}
    return {"scope": SCOPE, "command": command}


def search(query: str) -> dict[str, Any]:
    return {"contract_version": 1, "scope": SCOPE, "query": query}


def key(subject: str, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "grants": ["memory_read"], **extra}


KEYS = "/api/v1/contexts/{cid}/keys"


# (who sends it, method, path under the Context, body, the field named)
CASES: list[tuple[str, str, str, Any, str]] = [
    ("key", "POST", "/api/v1/memory/commands", note(SURROGATE), "command.content"),
    ("key", "POST", "/api/v1/memory/commands", note(NUL), "command.content"),
    ("key", "POST", "/api/v1/memory/search", search(NUL), "query"),
    ("key", "POST", "/api/v1/memory/search", search(SURROGATE), "query"),
    ("key", "POST", "/api/v1/{cid}/query", {"query": NUL}, "query"),
    ("key", "POST", "/api/v1/{cid}/query", {"query": "x", "scope": [NUL]}, "scope.0"),
    ("key", "POST", "/api/v1/{cid}/facts", {"text": SURROGATE}, "text"),
    ("key", "POST", "/api/v1/{cid}/chat", {"message": NUL, "remember": False}, "message"),
    ("admin", "POST", "/api/v1/contexts", {"name": NUL}, "name"),
    ("admin", "POST", "/api/v1/contexts", {"name": SURROGATE}, "name"),
    ("admin", "POST", "/api/v1/contexts", {"name": "\u202e\u0007bell"}, "name"),
    ("admin", "POST", "/api/v1/contexts", {"name": "x", "owner_subject": NUL}, "owner_subject"),
    ("admin", "POST", KEYS, key(NUL), "subject"),
    ("admin", "POST", KEYS, key("bob\x07"), "subject"),
    ("admin", "POST", KEYS, key("\u202ebob"), "subject"),
    ("admin", "POST", KEYS, key("b", scope=NUL), "scope"),
]  # fmt: skip


@pytest.mark.parametrize(("who", "method", "path", "body", "field"), CASES)
def test_unstorable_text_is_400_naming_the_field(
    live, admin, make_context: Callable[..., dict[str, Any]], who, method, path, body, field
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as own:
        client = own if who == "key" else admin
        resp = send(client, method, path.format(cid=ctx["id"]), body)
    assert resp.status_code == 400, resp.text
    unstorable = any(bad in json.dumps(body) for bad in ("\\u0000", "\\ud800"))
    code = "binary_content" if unstorable else "invalid_request"
    assert resp.json()["error"] == resp.json()["error"] | {"field": field, "code": code}


def test_a_nul_in_get_query_is_400_and_get_takes_no_more_scopes_than_post(
    live, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    path = f"/api/v1/{ctx['id']}/query"
    with live.client(ctx["key"]) as key:
        resp = key.get(path, params={"query": NUL})
        assert resp.status_code == 400 and resp.json()["error"]["field"] == "query"
        assert resp.json()["error"]["code"] == "binary_content"
        resp = key.get(path, params={"query": "x", "scope": [f"s{n}" for n in range(2000)]})
        assert resp.status_code == 400 and resp.json()["error"]["field"] == "scope"
        assert key.get(path, params={"query": "x", "scope": ["a"] * 16}).status_code == 200


def test_the_admin_token_uploading_a_document_is_403_context_key_required(
    admin, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    files = {"file": ("a.txt", b"I love jazz.", "text/plain")}
    resp = admin.post(f"/api/v1/{ctx['id']}/documents", files=files)
    assert resp.status_code == 403, resp.text
    assert resp.json()["error"]["code"] == "context_key_required"
