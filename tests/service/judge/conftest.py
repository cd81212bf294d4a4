"""The ingest judge's service tier: Services with a scripted judge model, and Contexts
with the judge turned on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness

JUDGE_MODEL = "openai:judge-model"
T = TypeVar("T")


@pytest.fixture
def judging(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    """Services whose judge model is the scripted one."""
    return services_with(**scripted_models(scripted, model_judge=JUDGE_MODEL, model_timeout_s=2.0))


@pytest.fixture
def judged(judging: ServiceHarness) -> Callable[..., ContextKey]:
    """judged(patch=None, **judge): a Context with the judge on and alice's full key."""

    def make(patch: dict[str, Any] | None = None, **judge: Any) -> ContextKey:
        config = {"judge": {"enabled": True, **judge}, **(patch or {})}
        return judging.make_context("judged", subject="alice", config=config)

    return make


@pytest.fixture
def gates(judging: ServiceHarness) -> Callable[[Callable[[Any], Awaitable[T]]], T]:
    """gates(fn): run `fn(services)` on the judging Services' event loop (direct gate calls)."""

    def run(fn: Callable[[Any], Awaitable[T]]) -> T:
        return judging.run(fn(judging.services))

    return run
