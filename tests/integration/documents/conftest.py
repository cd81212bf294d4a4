"""Documents are processed by a real in-process worker of the live server."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest

from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    """A live server with an in-process worker; the judge model is scripted (used only
    by Contexts that turn the judge on)."""
    changes = scripted_models(scripted, model_judge="openai:judge-model", model_timeout_s=2.0)
    return live_with(run_worker=True, **changes)


def wait_for(client: httpx.Client, cid: str, doc_id: str, timeout: float = 60) -> dict:
    """Poll until the worker has finished with the document."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/v1/{cid}/documents/{doc_id}").json()
        if body.get("status") in ("processed", "failed"):
            return body
        time.sleep(0.1)
    raise AssertionError(f"document {doc_id} still {body.get('status')} after {timeout} s")
