"""Documents are processed by a real in-process worker of the live server."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from memwarden.settings import Settings
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer


@pytest.fixture
def live(settings: Settings, scripted: ScriptedModelServer) -> Iterator[LiveServer]:
    """A live server with an in-process worker; the judge model is scripted (used only
    by Contexts that turn the judge on)."""
    judged = settings.model_copy(
        update={
            "openai_base_url": scripted.base_url,
            "model_judge": "openai:judge-model",
            "model_timeout_s": 2.0,
            "model_max_retries": 0,
        }
    )
    server = LiveServer(judged, run_worker=True).start()
    yield server
    server.stop()


def wait_for(client: httpx.Client, cid: str, doc_id: str, timeout: float = 60) -> dict:
    """Poll until the worker has finished with the document."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/v1/{cid}/documents/{doc_id}").json()
        if body.get("status") in ("processed", "failed"):
            return body
        time.sleep(0.1)
    raise AssertionError(f"document {doc_id} still {body.get('status')} after {timeout} s")
