"""Webhook delivery on the service tier: Services with fast retries, a receiver on
127.0.0.1, and `pump`, which runs the real job queue's worker until a condition holds."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from procrastinate.exceptions import AlreadyEnqueued

from memwarden.webhooks import service
from memwarden.webhooks.contract import CreateWebhook
from memwarden.webhooks.delivery import QUEUE, SWEEP_TASK
from memwarden.webhooks.responses import CreatedWebhook
from tests.support.services import ContextKey, ServiceHarness
from tests.support.webhook_receiver import WebhookReceiver

# Retries after 10 to 60 ms: a test waits for its attempts, never for a real schedule.
FAST = {"webhook_backoff_s": 0.01, "webhook_backoff_max_s": 0.05, "webhook_timeout_s": 3.0}


@pytest.fixture
def hooks(services_with: Callable[..., ServiceHarness]) -> ServiceHarness:
    return services_with(**FAST)


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as r:
        yield r


def subscribe(
    h: ServiceHarness, who: ContextKey, url: str, events: list[str], **options: Any
) -> CreatedWebhook:
    body = CreateWebhook(url=url, events=events, **options)
    return h.run(service.create(h.services, who.caller, who.id, body))


def work(h: ServiceHarness) -> None:
    """The sweep as the scheduler defers it, then a real worker until the queue is empty
    (the jobs the triggers queued run first)."""
    with contextlib.suppress(AlreadyEnqueued):
        h.run(h.services.jobs.tasks[SWEEP_TASK].defer_async(timestamp=0))
    h.run(
        h.services.jobs.run_worker_async(queues=[QUEUE], wait=False, install_signal_handlers=False)
    )


def pump(h: ServiceHarness, until: Callable[[], bool], timeout_s: float = 15.0) -> None:
    """Work until `until()` holds (the retries are due within 60 ms)."""
    deadline = time.monotonic() + timeout_s
    while not until():
        assert time.monotonic() < deadline, "the condition did not hold in time"
        work(h)
        time.sleep(0.03)
