"""Response bodies of the memory contract routes, declared for /openapi.json only
(`responses=` on `api/routes/memory.py`; `commands.run_command`, `decisions.decide` and
`history` build them with `render`). Extra keys are allowed."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    """A documented answer: the fields below, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


class CommandResult(Described):
    contract_version: int
    record_id: str
    revision: int = Field(description="The record's revision after the command.")


class Receipt(Described):
    """One review decision, as stored (`render.receipt`)."""

    contract_version: int
    receipt_id: str
    record_id: str
    revision: int
    disposition: str
    reviewer: str | None
    credential_id: str | None
    evidence_ref: Any = None
    decided_at: str | None
    idempotency_key: str | None


class ReceiptAnswer(Described):
    """POST /memory/reviews (a replayed decision answers its first receipt) and
    /memory/reviews/read."""

    contract_version: int
    receipt: Receipt


class ReviewObject(Described):
    disposition: str
    revision: int | None
    receipt_id: str
    reviewer: str | None
    decided_at: str | None


class RecordState(Described):
    record_id: str
    revision: int
    review: ReviewObject | None = Field(description="The current decision, if any.")
    deleted: bool
    expired: bool


class ReviewStateAnswer(Described):
    contract_version: int
    scope: dict[str, Any] = Field(description="The scope the request named, as sent.")
    state: RecordState
