"""Hygiene over HTTP: a live server with an in-process worker (scans are jobs) and both
judging paths on the scripted model server."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.integration.review.helpers import attach, create, unit_vector
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models

SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    changes = scripted_models(
        scripted, model_adjudication="openai:strong", model_hygiene="openai:cheap"
    )
    return live_with(run_worker=True, **changes)


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


@pytest.fixture
def alice(live: LiveServer, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client


def near_pair(client: httpx.Client) -> tuple[str, str]:
    """Two authoritative memories whose vectors are close (cosine about 0.96)."""
    a, rev_a = create(client, "The deploy key rotates every month.")
    b, rev_b = create(client, "The deploy key rotates every week.")
    assert attach(client, a, rev_a, unit_vector(0)).status_code == 200
    assert attach(client, b, rev_b, unit_vector(0, 1, 0.3)).status_code == 200
    return a, b


def scan(client: httpx.Client, cid: str, *, rejudge: bool = False) -> dict[str, Any]:
    """POST hygiene/scan (202) and poll the run until the worker finished it."""
    started = client.post(f"/api/v1/{cid}/hygiene/scan", json={"rejudge": rejudge})
    assert started.status_code == 202, started.text
    run_id = started.json()["runId"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = client.get(f"/api/v1/{cid}/hygiene/runs/{run_id}")
        assert run.status_code == 200, run.text
        if run.json()["status"] in ("done", "failed"):
            return run.json()
        time.sleep(0.1)
    raise AssertionError("the hygiene run did not finish")
