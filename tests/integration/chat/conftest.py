"""Fixtures for chat and reflection: a live server whose chat and judge models are a scripted
OpenAI-compatible server, an offline server (no chat model) on the same database, and SQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models

CHAT_MODEL = "chat-model"


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """The shared `live` fixture, with a scripted chat model (and judge model)."""
    return live_with(
        **scripted_models(
            scripted, model_chat=f"openai:{CHAT_MODEL}", model_judge="openai:judge-model"
        )
    )


@pytest.fixture
def offline(live: LiveServer, live_with: Callable[..., LiveServer]) -> LiveServer:
    """A second server on the same database with the offline defaults: no chat model."""
    return live_with()


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


@pytest.fixture
def alice(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client


@pytest.fixture
def configure(admin: httpx.Client) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    def patch(context: dict[str, Any], body: dict[str, Any]) -> None:
        resp = admin.patch(f"/api/v1/contexts/{context['id']}/config", json=body)
        assert resp.status_code == 200, resp.text

    return patch
