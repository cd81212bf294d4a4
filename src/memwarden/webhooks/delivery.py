"""Sending deliveries: claim the due ones, sign, POST, record what happened.

The outbox rows are written by the migration's triggers in the transaction that wrote each
event, with one job per transaction and Context beside them (`memwarden:webhooks_deliver`,
under the Context's procrastinate lock); a sweep every minute sends whatever is due
(retries, resumed subscriptions, ended leases). A claim
counts the attempt and leases the delivery, so a worker that dies mid-send leaves it due
again: delivery is at least once, and receivers deduplicate by the event's `id`.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import structlog

from memwarden.domain.grants import effective_grants
from memwarden.services import Services
from memwarden.store import admin as admin_store
from memwarden.store import webhooks as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn
from memwarden.webhooks import backoff, signature, urls
from memwarden.webhooks.kinds import RECORDLESS

log = structlog.get_logger(__name__)

DELIVER_TASK = "memwarden:webhooks_deliver"
SWEEP_TASK = "memwarden:webhooks_sweep"
QUEUE = "webhooks"
BATCH = 100
PARALLEL = 8
SWEEP_BUDGET_S = 50.0
KEEP_DAYS = 30  # how long a delivered or failed delivery stays in the deliveries list
PURGE_BATCH = 5000
SYSTEM_ACTOR = "memwarden"
USER_AGENT = "memwarden-webhooks/1"
_random = secrets.SystemRandom()
T = TypeVar("T")


@dataclass(frozen=True)
class Attempt:
    status_code: int | None
    error: str | None


async def nudge(services: Services, context_id: uuid.UUID) -> None:
    """Queue a job that sends the Context's due deliveries; the Context's jobs run one at
    a time (procrastinate's `lock`, as the migration's triggers queue them)."""
    deferrer = services.jobs.configure_task(
        DELIVER_TASK, queue=QUEUE, lock=f"webhooks:{context_id}"
    )
    await deferrer.defer_async(context_id=str(context_id))


def schedule(services: Services) -> backoff.Schedule:
    s = services.settings
    return backoff.Schedule(s.webhook_backoff_s, s.webhook_backoff_max_s, s.webhook_max_attempts)


async def sweep(services: Services) -> int:
    """The minute's sweep: drop deliveries settled more than KEEP_DAYS ago, then send
    every Context's due ones."""
    async with services.db.transaction() as conn:
        await store.purge_settled(conn, KEEP_DAYS, PURGE_BATCH)
    return await deliver_due(services)


async def deliver_due(
    services: Services, context_id: uuid.UUID | None = None, *, budget_s: float = SWEEP_BUDGET_S
) -> int:
    """Deliveries claimed: batches of due ones (of one Context, or of each Context with
    some due, the longest waiting first) until none is due or the time budget is spent
    (what is left waits for the next sweep). A claim names one Context, so on Citus it is
    routed to the Context's shard; up to PARALLEL Contexts are served at once, and up to
    PARALLEL subscriptions' sends run at once across them."""
    started = time.monotonic()
    if context_id is None:
        async with services.db.connection() as conn:
            contexts = await store.due_contexts(conn)
    else:
        contexts = [context_id]
    async with httpx.AsyncClient(
        follow_redirects=False,
        timeout=services.settings.webhook_timeout_s,
        headers={"User-Agent": USER_AGENT},
        trust_env=False,
    ) as client:
        contexts_gate, sends_gate = asyncio.Semaphore(PARALLEL), asyncio.Semaphore(PARALLEL)
        made = sum(
            await asyncio.gather(
                *(
                    _gated(
                        contexts_gate,
                        _deliver_context(services, client, cid, sends_gate, started + budget_s),
                    )
                    for cid in contexts
                )
            )
        )
    return made


async def _deliver_context(
    services: Services,
    client: httpx.AsyncClient,
    context_id: uuid.UUID,
    gate: asyncio.Semaphore,
    deadline: float,
) -> int:
    lease_s = services.settings.webhook_timeout_s + 60.0
    made = 0
    while time.monotonic() < deadline:
        async with services.db.transaction() as conn:
            claimed = await store.claim_due(conn, context_id, BATCH, lease_s)
        if not claimed:
            break
        groups: dict[uuid.UUID, list[store.Claimed]] = defaultdict(list)
        for d in sorted(claimed, key=lambda d: d.n):  # RETURNING keeps no order
            groups[d.subscription_id].append(d)
        await asyncio.gather(
            *(_gated(gate, _send_group(services, client, g, deadline)) for g in groups.values())
        )
        made += len(claimed)
    return made


async def _gated(gate: asyncio.Semaphore, work: Awaitable[T]) -> T:
    async with gate:
        return await work


async def _send_group(
    services: Services, client: httpx.AsyncClient, group: list[store.Claimed], deadline: float
) -> None:
    """One subscription's deliveries in feed order. After a failed attempt the rest wait
    as long as it does, unattempted: a receiver that is down gets one attempt per round,
    not one per event, and a slow one cannot hold the run past its time."""
    for i, delivery in enumerate(group):
        left = group[i + 1 :]
        if time.monotonic() > deadline:
            await _release(services, group[i:], 0.0)
            return
        sent = await _attempt(services, client, delivery)
        if not sent.active or not sent.delivered:
            delay = (sent.retry_in_s or 0.0) if sent.active else 0.0
            await _release(services, left, delay)
            return


async def _release(services: Services, deliveries: list[store.Claimed], delay_s: float) -> None:
    if not deliveries:
        return
    async with services.db.transaction() as conn:
        for delivery in deliveries:
            await store.release(conn, delivery, delay_s)


@dataclass(frozen=True)
class Sent:
    delivered: bool
    active: bool  # the subscription after this attempt
    retry_in_s: float | None


async def _attempt(services: Services, client: httpx.AsyncClient, delivery: store.Claimed) -> Sent:
    body = await _body(services, delivery)
    result = await _post(services, client, delivery, body)
    decision = backoff.decide(
        schedule(services),
        backoff.outcome(result.status_code),
        delivery.attempts,
        _random.random(),
    )
    delivered = decision.delivery == "delivered"
    async with services.db.transaction() as conn:
        await store.record_attempt(
            conn,
            delivery,
            status=decision.delivery,
            status_code=result.status_code,
            error=result.error,
            retry_in_s=decision.retry_in_s,
        )
        counted = await store.count_attempt(
            conn, delivery.context_id, delivery.subscription_id, delivered=delivered
        )
        status, failures = counted if counted is not None else ("deleted", 0)
        pause = backoff.pause_reason(result.error, failures, services.settings.webhook_pause_after)
        if pause is not None and status == "active":
            await _pause(conn, delivery, pause)
            status = "paused"
    log.info(
        "webhook attempt",
        delivery_id=str(delivery.id),
        webhook_id=str(delivery.subscription_id),
        attempt=delivery.attempts,
        status_code=result.status_code,
        error=result.error,
        outcome=decision.delivery,
    )
    return Sent(delivered, status == "active", decision.retry_in_s)


async def _pause(conn: Conn, delivery: store.Claimed, reason: str) -> None:
    if await store.pause(conn, delivery.context_id, delivery.subscription_id, reason):
        await audit(
            conn,
            context_id=delivery.context_id,
            actor_subject=SYSTEM_ACTOR,
            key_id=None,
            action=f"webhook.pause_{reason}",
            target_kind="webhook",
            target_id=delivery.subscription_id,
        )


async def _post(
    services: Services, client: httpx.AsyncClient, delivery: store.Claimed, body: bytes
) -> Attempt:
    allowed = urls.allowed_hosts(services.settings.webhook_allowed_hosts)
    if not urls.host_allowed(urls.host_of(delivery.url), allowed):
        return Attempt(None, "forbidden_host")
    headers = {
        "Content-Type": "application/json",
        signature.HEADER: signature.sign(delivery.secret, body, int(time.time())),
        "Memwarden-Event": delivery.event_type,
        "Memwarden-Delivery": str(delivery.id),
    }
    try:
        resp = await client.post(delivery.url, content=body, headers=headers)
    except httpx.TimeoutException:
        return Attempt(None, "timeout")
    except httpx.ConnectError:
        return Attempt(None, "connect")
    except httpx.HTTPError:
        return Attempt(None, "transport")
    return Attempt(resp.status_code, backoff.error_class(resp.status_code))


async def _body(services: Services, delivery: store.Claimed) -> bytes:
    """The event as sent: ids and kinds, content only as the subscription allows."""
    data: dict[str, Any] = dict(delivery.data)
    if delivery.include_content and delivery.event_type not in RECORDLESS:
        content = await _content(services, delivery)
        if content is not None:
            data["content"] = content.content
            data["contentRevision"] = content.revision
    event = {
        "id": delivery.event_id,
        "feedId": delivery.feed_seq,
        "type": delivery.event_type,
        "contextId": str(delivery.context_id),
        "occurredAt": delivery.occurred_at.isoformat(),
        "data": data,
    }
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode()


async def _content(services: Services, delivery: store.Claimed) -> store.Content | None:
    """The record's content when the subscription's key could read it now: its principal's
    current memory_read grants narrowed by the key, the change feed's predicate (a private
    record only for the key's subject); a revoked or expired key, none."""
    record_id = delivery.data.get("recordId")
    if delivery.key_id is None or not record_id:
        return None
    async with services.db.connection() as conn:
        key = await admin_store.key_grants(conn, delivery.context_id, delivery.key_id)
        if key is None or key.revoked_at is not None:
            return None
        if key.expires_at is not None and key.expires_at.timestamp() <= time.time():
            return None
        pairs = [tuple(g.split("|", 1)) for g in key.principal_grants]
        grants = effective_grants(pairs, key.capabilities, key.scope_prefix)  # type: ignore[arg-type]
        prefixes = grants.get("memory_read", ())
        if not prefixes:
            return None
        return await store.readable_content(
            conn,
            delivery.context_id,
            uuid.UUID(str(record_id)),
            prefixes=prefixes,
            subject=key.subject,
        )
