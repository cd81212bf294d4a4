"""Webhook subscriptions of a Context: create, list, show, change, delete, rotate the
secret, list deliveries. grant:manage over the whole Context on a Context key: a
subscription may carry memory content, so the admin token (which reads no memory) has
none. Another Context's subscription id is not found here. Each change is audited by id."""

from __future__ import annotations

import secrets
import uuid

from memwarden.admin.access import require_key, require_manage
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.errors import InvalidInput, NotFound
from memwarden.paging import id_cursor, split_page
from memwarden.services import Services
from memwarden.store import webhooks as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn
from memwarden.webhooks import kinds, urls
from memwarden.webhooks.contract import CreateWebhook, PatchWebhook
from memwarden.webhooks.delivery import nudge
from memwarden.webhooks.responses import (
    CreatedWebhook,
    DeletedWebhook,
    Delivery,
    DeliveryList,
    RotatedSecret,
    Webhook,
    WebhookList,
)

MAX_PAGE = 200


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def _events(events: list[str]) -> list[str]:
    unknown = kinds.unknown_kinds(events)
    if unknown:
        raise InvalidInput(
            f"unknown event kind {unknown[0]!r}; use {', '.join(kinds.EVENT_KINDS)}",
            field="events",
        )
    return kinds.normalise(events)


def _url(services: Services, url: str) -> str:
    problem = urls.problem(url, urls.allowed_hosts(services.settings.webhook_allowed_hosts))
    if problem is not None:
        raise InvalidInput(problem, field="url")
    return url


def _require(caller: Caller, context_id: uuid.UUID) -> None:
    require_key(caller)
    require_manage(caller, context_id)


def _limit(limit: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")


async def _audit(conn: Conn, caller: Caller, cid: uuid.UUID, action: str, id: uuid.UUID) -> None:
    await audit(
        conn,
        context_id=cid,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action=f"webhook.{action}",
        target_kind="webhook",
        target_id=id,
    )


async def create(
    services: Services, caller: Caller, context_id: uuid.UUID, body: CreateWebhook
) -> CreatedWebhook:
    """The subscription records the key that made it: its read grants, at delivery time,
    decide whether content goes out."""
    _require(caller, context_id)
    events = _events(body.events)
    url = _url(services, body.url)
    secret = new_secret()
    async with services.db.transaction() as conn:
        row = await store.insert(
            conn,
            {
                "context_id": context_id,
                "id": new_id(),
                "url": url,
                "events": events,
                "include_content": body.include_content,
                "description": body.description,
                "secret": secret,
                "key_id": caller.key_id,
                "created_by": caller.subject,
            },
        )
        await _audit(conn, caller, context_id, "create", row.id)
    return CreatedWebhook(**Webhook.of(row).model_dump(), secret=secret)


async def list_webhooks(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    cursor: str | None = None,
    limit: int = 100,
) -> WebhookList:
    _require(caller, context_id)
    _limit(limit)
    async with services.db.connection() as conn:
        rows = await store.page(conn, context_id, id_cursor(cursor), limit + 1)
    page, next_cursor = split_page(rows, limit, lambda r: str(r.id))
    return WebhookList(webhooks=[Webhook.of(r) for r in page], next_cursor=next_cursor)


async def get(
    services: Services, caller: Caller, context_id: uuid.UUID, webhook_id: uuid.UUID
) -> Webhook:
    _require(caller, context_id)
    async with services.db.connection() as conn:
        row = await store.get(conn, context_id, webhook_id)
    if row is None:
        raise NotFound("webhook not found")
    return Webhook.of(row)


async def patch(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    body: PatchWebhook,
) -> Webhook:
    """`active: true` resumes a paused subscription: its waiting deliveries are due at
    once, each with its attempts anew."""
    _require(caller, context_id)
    events = _events(body.events) if body.events is not None else None
    url = _url(services, body.url) if body.url is not None else None
    async with services.db.transaction() as conn:
        if not await store.lock(conn, context_id, webhook_id):
            raise NotFound("webhook not found")
        row = await store.get(conn, context_id, webhook_id)
        assert row is not None
        status = row.status
        if body.active is not None:
            status = "active" if body.active else "paused"
        resumed = row.status == "paused" and status == "active"
        updated = await store.update(
            conn,
            {
                "context_id": context_id,
                "id": webhook_id,
                "url": url or row.url,
                "events": events or row.events,
                "description": row.description if body.description is None else body.description,
                "include_content": (
                    row.include_content if body.include_content is None else body.include_content
                ),
                "status": status,
                "paused_reason": row.paused_reason if status == row.status else "manual",
            },
        )
        if resumed:
            await store.resume_deliveries(conn, context_id, webhook_id)
        await _audit(conn, caller, context_id, "resume" if resumed else "update", webhook_id)
    if resumed:
        await nudge(services, context_id)
    return Webhook.of(updated)


async def delete(
    services: Services, caller: Caller, context_id: uuid.UUID, webhook_id: uuid.UUID
) -> DeletedWebhook:
    """Its waiting deliveries go with it."""
    _require(caller, context_id)
    async with services.db.transaction() as conn:
        if not await store.delete(conn, context_id, webhook_id):
            raise NotFound("webhook not found")
        await _audit(conn, caller, context_id, "delete", webhook_id)
    return DeletedWebhook(id=str(webhook_id))


async def rotate_secret(
    services: Services, caller: Caller, context_id: uuid.UUID, webhook_id: uuid.UUID
) -> RotatedSecret:
    """The old secret stops signing at once; attempts from now are signed with the new."""
    _require(caller, context_id)
    secret = new_secret()
    async with services.db.transaction() as conn:
        if not await store.set_secret(conn, context_id, webhook_id, secret):
            raise NotFound("webhook not found")
        await _audit(conn, caller, context_id, "rotate_secret", webhook_id)
    return RotatedSecret(id=str(webhook_id), secret=secret)


def _delivery_cursor(cursor: str | None) -> int | None:
    if cursor is None or cursor == "":
        return None
    if not cursor.isascii() or not cursor.isdigit() or len(cursor) > 19:
        raise InvalidInput("cursor is not a valid page cursor", field="cursor")
    return int(cursor)


async def deliveries(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> DeliveryList:
    """Newest first; status code and error class of the latest attempt, never a body."""
    _require(caller, context_id)
    _limit(limit)
    before = _delivery_cursor(cursor)
    async with services.db.connection() as conn:
        if await store.get(conn, context_id, webhook_id) is None:
            raise NotFound("webhook not found")
        rows = await store.deliveries(conn, context_id, webhook_id, before, limit + 1)
    page, next_cursor = split_page(rows, limit, lambda r: str(r.n))
    return DeliveryList(deliveries=[Delivery.of(r) for r in page], next_cursor=next_cursor)
