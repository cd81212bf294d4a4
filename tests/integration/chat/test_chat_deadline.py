"""The request deadline over real HTTP (issue 15, finding 2): a chat model that hangs is
502 at `MEMWARDEN_REQUEST_DEADLINE_S`, not after the per-call timeout."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.integration.chat.conftest import CHAT_MODEL
from tests.integration.chat.helpers import chat, events
from tests.support.live import LiveServer
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

DEADLINE_S = 2.0


def stream(client: httpx.Client, cid: str, message: str, **body: object) -> httpx.Response:
    return client.post(f"/api/v1/{cid}/chat/stream", json={"message": message, **body})


@pytest.fixture
def bounded(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    return live_with(
        **scripted_models(
            scripted,
            model_chat=f"openai:{CHAT_MODEL}",
            model_timeout_s=10.0,
            model_max_retries=2,
            request_deadline_s=DEADLINE_S,
        )
    )


@pytest.fixture
def bob(bounded: LiveServer, ctx: dict) -> Iterator[httpx.Client]:
    with bounded.client(ctx["key"]) as client:
        yield client


@pytest.mark.parametrize("send", [chat, stream], ids=["chat", "stream"])
def test_a_hanging_chat_model_is_502_at_the_deadline(bob, ctx, scripted, send) -> None:
    scripted.respond_with("chat", Reply.text("late").after(8.0))
    started = time.monotonic()
    resp = send(bob, ctx["id"], "hello there", remember=False)
    assert resp.status_code == 502
    assert resp.json()["error"]["code"] == "model_provider_error"
    assert time.monotonic() - started < DEADLINE_S + 1.5
    assert len(scripted.requests_for("chat")) == 1


def test_a_trickled_stream_ends_with_an_error_event_at_the_deadline(bob, ctx, scripted) -> None:
    scripted.respond_with("chat", Reply.text("word " * 40).trickled(0.3))
    started = time.monotonic()
    got = events(stream(bob, ctx["id"], "hello there", remember=False))
    assert time.monotonic() - started < DEADLINE_S + 1.5
    assert got[-1][0] == "error"
    assert got[-1][1]["error"]["code"] == "model_provider_error"
    assert any(name == "token" for name, _ in got)
