"""Export and import at the service tier: Services with a scripted judge and hygiene."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ServiceHarness


@pytest.fixture
def judged(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    """The judge and both hygiene judging paths on the scripted server."""
    return services_with(
        **scripted_models(
            scripted,
            model_judge="openai:judge-model",
            model_adjudication="openai:strong",
            model_hygiene="openai:cheap",
            model_timeout_s=5.0,
        )
    )
