"""Fixtures for the write path: a live server on the rule extractor (offline default) or on
a scripted OpenAI-compatible model, clients, and direct SQL for counting rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from memwarden.settings import Settings
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer


@pytest.fixture
def model_settings(settings: Settings, scripted: ScriptedModelServer) -> Settings:
    return settings.model_copy(
        update={
            "openai_base_url": scripted.base_url,
            "model_extraction": "openai:test-model",
            "model_max_retries": 0,
            "model_timeout_s": 10.0,
        }
    )


@pytest.fixture
def start_server() -> Iterator[Callable[..., LiveServer]]:
    """start_server(settings, gatekeeper=None): a live server, stopped after the test."""
    started: list[LiveServer] = []

    def start(settings: Settings, gatekeeper: Any = None) -> LiveServer:
        server = LiveServer(settings)
        if gatekeeper is not None:
            server.services.gatekeeper = gatekeeper
        started.append(server.start())
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def modelled(start_server, model_settings: Settings) -> LiveServer:
    return start_server(model_settings)


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


@pytest.fixture
def alice(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client
