"""Fixtures for the dashboard over plain HTTP: a live server with a scripted judge model,
a Context with the judge on, and a signed-in httpx client."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.support.dashboard import sign_in
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models

ALL_GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    return live_with(
        **scripted_models(scripted, model_judge="openai:judge-model", model_timeout_s=2.0)
    )


@pytest.fixture
def judged(admin: httpx.Client) -> Callable[..., dict[str, Any]]:
    """A Context with the judge on (plus config) and a full-grant key for alice."""

    def make(grants: list[str] | None = None, **judge: Any) -> dict[str, Any]:
        cid = admin.post("/api/v1/contexts", json={"name": "reviewed"}).json()["id"]
        resp = admin.patch(
            f"/api/v1/contexts/{cid}/config", json={"judge": {"enabled": True, **judge}}
        )
        assert resp.status_code == 200, resp.text
        issued = admin.post(
            f"/api/v1/contexts/{cid}/keys",
            json={"subject": "alice", "grants": grants or ALL_GRANTS},
        ).json()
        return {"id": cid, "key": issued["key"], "key_id": issued["id"]}

    return make


@pytest.fixture
def browser_less(live: LiveServer) -> Iterator[Callable[[str], httpx.Client]]:
    """browser_less(credential): an httpx client signed in to the dashboard."""
    opened: list[httpx.Client] = []

    def make(credential: str) -> httpx.Client:
        client = live.client()
        opened.append(client)
        resp = sign_in(client, credential)
        assert resp.status_code == 303, resp.text
        return client

    yield make
    for c in opened:
        c.close()
