"""Passes over real HTTP, run by the live server's in-process worker."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.live import LiveServer


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    return live_with(run_worker=True)
