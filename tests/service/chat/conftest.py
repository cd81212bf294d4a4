"""Chat's service tier: Services whose chat (and judge) model is the scripted one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.integration.chat.conftest import CHAT_MODEL
from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness


@pytest.fixture
def chatting(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    return services_with(
        **scripted_models(
            scripted, model_chat=f"openai:{CHAT_MODEL}", model_judge="openai:judge-model"
        )
    )


@pytest.fixture
def ctx(chatting: ServiceHarness) -> ContextKey:
    return chatting.make_context(subject="alice")
