"""Fixtures for the ingest judge: a scripted judge model, a live server wired to it,
and Contexts with the judge turned on. Direct calls to the gates are in tests/service/judge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models

ALL_GRANTS = ["memory_read", "memory_write", "memory_review", "grant:manage"]

JUDGE_MODEL = "openai:judge-model"


@pytest.fixture
def judge_models(scripted: ScriptedModelServer) -> dict[str, Any]:
    """Settings changes for a scripted judge model."""
    return scripted_models(scripted, model_judge=JUDGE_MODEL, model_timeout_s=2.0)


@pytest.fixture
def live(live_with: Callable[..., LiveServer], judge_models: dict[str, Any]) -> LiveServer:
    """The shared `live` fixture, but pointed at the scripted judge model."""
    return live_with(**judge_models)


@pytest.fixture
def judged(admin: httpx.Client, live: LiveServer) -> Callable[..., dict[str, Any]]:
    """A Context with the judge on (plus any config patch) and a full-grant key for alice."""

    def make(patch: dict[str, Any] | None = None, **judge: Any) -> dict[str, Any]:
        cid = admin.post("/api/v1/contexts", json={"name": "judged"}).json()["id"]
        body = {"judge": {"enabled": True, **judge}, **(patch or {})}
        resp = admin.patch(f"/api/v1/contexts/{cid}/config", json=body)
        assert resp.status_code == 200, resp.text
        issued = admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": "alice", "grants": ALL_GRANTS}
        ).json()
        return {"id": cid, "key": issued["key"], "key_id": issued["id"]}

    return make


@pytest.fixture
def client(live: LiveServer) -> Callable[[str], httpx.Client]:
    opened: list[httpx.Client] = []

    def make(key: str) -> httpx.Client:
        c = live.client(key)
        opened.append(c)
        return c

    yield make  # type: ignore[misc]
    for c in opened:
        c.close()


__all__ = ["JUDGE_MODEL"]
