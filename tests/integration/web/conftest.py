"""Fixtures for the dashboard over plain HTTP: a live server with a scripted judge model,
a Context with the judge on, and a signed-in httpx client."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.support.dashboard import judged_context, sign_in
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    return live_with(
        **scripted_models(scripted, model_judge="openai:judge-model", model_timeout_s=2.0)
    )


@pytest.fixture
def judged(admin: httpx.Client) -> Callable[..., dict[str, Any]]:
    """judged(grants=None, **judge): a Context with the judge on and a key for alice."""
    return lambda grants=None, **judge: judged_context(admin, grants, **judge)


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
