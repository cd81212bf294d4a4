"""Fixtures for the Python client: the real `live` server, a Context with a full-grant key,
and `Memwarden` clients on it (memwarden_client is imported from clients/python/src)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from memwarden_client import Memwarden, MemwardenAdmin

from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer


@pytest.fixture
def ctx(make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """A Context and a key with every grant, for subject alice."""
    return make_context("client")


@pytest.fixture
def mw(live: LiveServer, ctx: dict[str, Any]) -> Iterator[Memwarden]:
    with Memwarden(live.url, ctx["key"], context_id=ctx["id"], timeout=60.0) as client:
        yield client


@pytest.fixture
def mw_admin(live: LiveServer) -> Iterator[MemwardenAdmin]:
    with MemwardenAdmin(live.url, ADMIN_TOKEN) as client:
        yield client
