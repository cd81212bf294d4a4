"""Fixtures for model tests: a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memwarden.models.openai_compat import OpenAICompatProvider
from tests.support.scripted_model import RecordingSink, ScriptedModelServer


@pytest.fixture
def scripted() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def sink() -> RecordingSink:
    return RecordingSink()


@pytest.fixture
def make_provider(
    scripted: ScriptedModelServer,
) -> Callable[..., OpenAICompatProvider]:
    def make(model: str = "test-model", **kwargs: Any) -> OpenAICompatProvider:
        kwargs.setdefault("timeout_s", 5.0)
        kwargs.setdefault("max_retries", 2)
        return OpenAICompatProvider(model, base_url=scripted.base_url, api_key="k", **kwargs)

    return make
