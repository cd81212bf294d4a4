"""Fixtures for the write path: a live server on the rule extractor (offline default) or on
a scripted OpenAI-compatible model, clients, and direct SQL for counting rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models


@pytest.fixture
def scripted_settings(scripted: ScriptedModelServer) -> dict[str, Any]:
    """Settings changes that make the scripted server the extraction model."""
    return scripted_models(scripted, model_extraction="openai:test-model", model_timeout_s=10.0)


@pytest.fixture
def modelled(live_with: Callable[..., LiveServer], scripted_settings: dict[str, Any]) -> LiveServer:
    """A live server whose extraction model is the scripted one."""
    return live_with(**scripted_settings)


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


@pytest.fixture
def alice(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client
