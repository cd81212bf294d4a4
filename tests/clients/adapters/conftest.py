"""Fixtures for the framework adapters: a live memwarden (offline defaults), a Context
with a key, the sync and async clients for it, and a Context whose ingest judge refuses
credentials and holds personal data (the detectors alone decide: no model needed)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from memwarden_client import AsyncMemwarden, Memwarden

from tests.support.live import LiveServer
from tests.support.scripted_model import Reply

# The detectors' own verdicts (docs/judge.md): a credential fails, personal data warns.
CREDENTIAL_TEXT = "My deploy token is ghp_4f9aQ2xL8mN3bV7cK1zR5tY0uI6oP9sWqE2d"
PERSONAL_TEXT = "Call me at alice@example.com or +1 415 555 0132"


@dataclass(frozen=True)
class Ctx:
    url: str
    id: str
    key: str

    def client(self) -> Memwarden:
        """No context_id: the adapters' clients learn it from /whoami, as users' do."""
        return Memwarden(self.url, self.key, max_retries=0)

    def async_client(self) -> AsyncMemwarden:
        return AsyncMemwarden(self.url, self.key, max_retries=0)


@pytest.fixture
def ctx(live: LiveServer, make_context: Callable[..., dict[str, Any]]) -> Ctx:
    made = make_context("adapters")
    return Ctx(live.url, made["id"], made["key"])


@pytest.fixture
def judged_ctx(
    live: LiveServer, make_context: Callable[..., dict[str, Any]], admin: httpx.Client
) -> Ctx:
    """The judge on with `on_warn: hold`: a credential is refused, personal data held."""
    made = make_context("judged")
    patch = {"judge": {"enabled": True, "on_warn": "hold"}}
    resp = admin.patch(f"/api/v1/contexts/{made['id']}/config", json=patch)
    assert resp.status_code == 200, resp.text
    return Ctx(live.url, made["id"], made["key"])


@pytest.fixture
def mw(ctx: Ctx) -> Iterator[Memwarden]:
    with ctx.client() as client:
        yield client


def tool_call(model: str, name: str, args: dict[str, Any]) -> Reply:
    """A scripted chat completion asking for one function call (OpenAI's tool-call shape,
    as agent frameworks read it)."""
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{name}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
        ],
    }
    body = {
        "id": "chatcmpl-tool",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10},
    }
    return Reply.raw(json.dumps(body))
