"""Answers of the webhook routes: the use cases return these, the routes declare them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memwarden.store.webhooks import DeliveryRow, SubscriptionRow


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Webhook(_Answer):
    """A subscription; its secret is shown only when created or rotated."""

    id: str
    url: str
    events: list[str]
    include_content: bool
    description: str
    status: Literal["active", "paused"]
    paused_reason: Literal["gone", "failures", "manual"] | None = Field(
        description="gone: the receiver answered 410; failures: too many failed attempts "
        "in a row; manual: paused by PATCH."
    )
    consecutive_failures: int
    created_by: str = Field(description="The subject of the key that created it.")
    key_id: str | None = Field(description="The key whose read grants decide content.")
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: SubscriptionRow) -> Webhook:
        return cls(
            id=str(row.id),
            url=row.url,
            events=list(row.events),
            include_content=row.include_content,
            description=row.description,
            status=row.status,  # type: ignore[arg-type]
            paused_reason=row.paused_reason,  # type: ignore[arg-type]
            consecutive_failures=row.consecutive_failures,
            created_by=row.created_by,
            key_id=str(row.key_id) if row.key_id else None,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )


class CreatedWebhook(Webhook):
    secret: str = Field(description="The signing secret (`whsec_...`); shown only here.")


class WebhookList(_Answer):
    webhooks: list[Webhook]
    next_cursor: str | None


class DeletedWebhook(_Answer):
    id: str
    deleted: bool = True


class RotatedSecret(_Answer):
    id: str
    secret: str = Field(description="The new signing secret; the old one stops at once.")


class Delivery(_Answer):
    """One event for one subscription and its latest attempt (never the body sent)."""

    id: str = Field(description="Sent as Memwarden-Delivery; the same on every attempt.")
    event_id: str = Field(description="The event's id (`feed:<seq>`, `judgement:<id>`, ...).")
    feed_id: int | None = Field(description="The change-feed seq, for feed events.")
    event_type: str
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    last_status_code: int | None
    last_error: str | None = Field(
        description="Error class of the last failed attempt: http_status, gone, timeout, "
        "connect, transport, forbidden_host."
    )
    last_attempt_at: datetime | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    occurred_at: datetime

    @classmethod
    def of(cls, row: DeliveryRow) -> Delivery:
        return cls(
            id=str(row.id),
            event_id=row.event_id,
            feed_id=row.feed_seq,
            event_type=row.event_type,
            status=row.status,  # type: ignore[arg-type]
            attempts=row.attempts,
            last_status_code=row.last_status_code,
            last_error=row.last_error,
            last_attempt_at=row.last_attempt_at,
            next_attempt_at=row.next_attempt_at,
            delivered_at=row.delivered_at,
            occurred_at=row.occurred_at,
        )


class DeliveryList(_Answer):
    deliveries: list[Delivery]
    next_cursor: str | None
