"""Webhook subscriptions of a Context (grant:manage): parse, authenticate, call the use case."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, Query

from memwarden.api.deps import caller, services
from memwarden.domain.grants import Caller
from memwarden.services import Services
from memwarden.webhooks import service as uc
from memwarden.webhooks.contract import CreateWebhook, PatchWebhook
from memwarden.webhooks.responses import (
    CreatedWebhook,
    DeletedWebhook,
    DeliveryList,
    RotatedSecret,
    Webhook,
    WebhookList,
)

router = APIRouter(prefix="/api/v1/{context_id}/webhooks", tags=["webhooks"])
_CURSOR = Query(None, max_length=64, description="next_cursor of the last page")


@router.post("", status_code=201, response_model=CreatedWebhook)
async def create_webhook(
    context_id: uuid.UUID,
    body: CreateWebhook,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> CreatedWebhook:
    """The answer carries the signing secret; no later answer does."""
    return await uc.create(svc, who, context_id, body)


@router.get("", response_model=WebhookList)
async def list_webhooks(
    context_id: uuid.UUID,
    cursor: str | None = _CURSOR,
    limit: int = Query(100, ge=1, le=uc.MAX_PAGE),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> WebhookList:
    return await uc.list_webhooks(svc, who, context_id, cursor=cursor, limit=limit)


@router.get("/{webhook_id}", response_model=Webhook)
async def get_webhook(
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> Webhook:
    return await uc.get(svc, who, context_id, webhook_id)


@router.patch("/{webhook_id}", response_model=Webhook)
async def patch_webhook(
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    body: PatchWebhook,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> Webhook:
    """`active: true` resumes a paused subscription."""
    return await uc.patch(svc, who, context_id, webhook_id, body)


@router.delete("/{webhook_id}", response_model=DeletedWebhook)
async def delete_webhook(
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DeletedWebhook:
    return await uc.delete(svc, who, context_id, webhook_id)


@router.post("/{webhook_id}/rotate-secret", response_model=RotatedSecret)
async def rotate_webhook_secret(
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> RotatedSecret:
    return await uc.rotate_secret(svc, who, context_id, webhook_id)


@router.get("/{webhook_id}/deliveries", response_model=DeliveryList)
async def list_webhook_deliveries(
    context_id: uuid.UUID,
    webhook_id: uuid.UUID,
    cursor: str | None = Query(None, max_length=19, description="next_cursor of the last page"),
    limit: int = Query(50, ge=1, le=uc.MAX_PAGE),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> DeliveryList:
    """Newest first: each event's latest attempt (status code, error class, next try)."""
    return await uc.deliveries(svc, who, context_id, webhook_id, cursor=cursor, limit=limit)
