"""The service tier: use cases called directly on a real database, no HTTP server.

A test here checks what a use case does (reconciliation outcomes, holds, replay, review
decisions, recall filters); what an interface makes of it (status codes, error bodies,
auth over HTTP, SSE, multipart) is checked in tests/acceptance.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness

EXTRACTION_MODEL = "openai:test-model"


@pytest.fixture
def svc(services_with: Callable[..., ServiceHarness]) -> ServiceHarness:
    """Services on the offline defaults (the rule extractor, the local embedder)."""
    return services_with()


@pytest.fixture
def modelled(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    """Services whose extraction model is the scripted one."""
    return services_with(
        **scripted_models(scripted, model_extraction=EXTRACTION_MODEL, model_timeout_s=10.0)
    )


@pytest.fixture
def ctx(svc: ServiceHarness) -> ContextKey:
    return svc.make_context(subject="alice")
