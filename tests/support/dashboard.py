"""Helpers for the dashboard's tests (HTTP-level and browser): signing in, form tokens."""

from __future__ import annotations

import re
from typing import Any

import httpx


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "no CSRF field on the page"
    return found.group(1)


def sign_in(client: httpx.Client, credential: str) -> httpx.Response:
    """The sign-in form's double-submit token, then the credential: a 303 when accepted."""
    form = client.get("/ui/sign-in")
    pre = re.search(r'name="pre" value="([^"]+)"', form.text)
    assert pre, "no sign-in token on the form"
    return client.post("/ui/sign-in", data={"pre": pre.group(1), "credential": credential})


ALL_GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]


def judged_context(
    admin: httpx.Client, grants: list[str] | None = None, **judge: Any
) -> dict[str, Any]:
    """A Context with the judge on (plus any judge settings) and a key for alice."""
    cid = admin.post("/api/v1/contexts", json={"name": "reviewed"}).json()["id"]
    resp = admin.patch(f"/api/v1/contexts/{cid}/config", json={"judge": {"enabled": True, **judge}})
    assert resp.status_code == 200, resp.text
    issued = admin.post(
        f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": grants or ALL_GRANTS}
    ).json()
    return {"id": cid, "key": issued["key"], "key_id": issued["id"]}
