"""The memory contract's service tier: alice's key and keys made on demand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.service.review.memory import Who
from tests.support.services import ContextKey, ServiceHarness


@pytest.fixture
def alice(svc: ServiceHarness, ctx: ContextKey) -> Who:
    return Who.of(svc, ctx)


@pytest.fixture
def who_for(svc: ServiceHarness, ctx: ContextKey) -> Callable[..., Who]:
    """A new key in alice's Context: who_for(grants, subject=..., scope=...)."""

    def make(grants: list[str], subject: str = "bob", **extra: Any) -> Who:
        return Who.of(svc, svc.add_key(ctx.id, grants, subject, **extra))

    return make
