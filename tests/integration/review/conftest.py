"""Fixtures for the memory contract: a Context with a full-grant key for alice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return make_context(subject="alice")


@pytest.fixture
def alice(live, ctx: dict[str, Any]) -> Iterator[httpx.Client]:
    with live.client(ctx["key"]) as client:
        yield client


@pytest.fixture
def client_for(live, ctx: dict[str, Any], make_key) -> Iterator[Callable[..., httpx.Client]]:
    """A client for a new key in the same Context: client_for(grants, subject=..., scope=...)."""
    opened: list[httpx.Client] = []

    def make(grants: list[str], subject: str = "bob", **extra: Any) -> httpx.Client:
        client = live.client(make_key(ctx["id"], grants, subject=subject, **extra))
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.close()
