"""POST /facts and /facts/batch: parse, authenticate, hand to the facts use case."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from memwarden.api.deps import caller, services
from memwarden.bootstrap import Services
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Visibility
from memwarden.pipeline.batch import MAX_BATCH, write_batch
from memwarden.pipeline.ingest import FactsInput, write_facts

router = APIRouter(tags=["facts"])


class FactsBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    text: str
    infer: Literal["full", "none"] = "full"
    scope: list[str] | None = Field(default=None, max_length=16)
    visibility: Visibility = "shared"
    session_id: uuid.UUID | None = Field(default=None, alias="sessionId")

    def to_input(self) -> FactsInput:
        return FactsInput(self.text, self.infer, self.scope, self.visibility, self.session_id)


class BatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[FactsBody] = Field(min_length=1, max_length=MAX_BATCH)


@router.post("/api/v1/{context_id}/facts", status_code=201)
async def facts(
    context_id: uuid.UUID,
    body: FactsBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await write_facts(svc, who, context_id, body.to_input())


@router.post("/api/v1/{context_id}/facts/batch")
async def facts_batch(
    context_id: uuid.UUID,
    body: BatchBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await write_batch(svc, who, context_id, [i.to_input() for i in body.items])
