"""Recall over HTTP: /query (POST body or GET parameters), /profile and /state."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from memwarden.api.deps import caller, services
from memwarden.domain.grants import Caller
from memwarden.retrieval.profile import get_profile
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.state import get_state
from memwarden.services import Services

router = APIRouter(tags=["recall"])
Kind = Literal[
    "entity", "attribute", "relation", "action", "instruction", "uncertainty", "note", "chunk"
]
Category = Literal["identity", "knowledge", "context"]
Mode = Literal["hybrid", "lexical", "vector"]


class QueryBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    query: str = Field(max_length=4000)
    limit: int = Field(default=10, ge=1, le=100)
    scope: list[str] | None = Field(default=None, max_length=16)
    categories: list[Category] | None = None
    kinds: list[Kind] | None = None
    include_superseded: bool = Field(default=False, alias="includeSuperseded")
    mode: Mode = "hybrid"

    def to_input(self) -> QueryInput:
        return QueryInput(
            self.query,
            self.limit,
            self.scope,
            self.categories,
            self.kinds,
            self.include_superseded,
            self.mode,
        )


@router.post("/api/v1/{context_id}/query")
async def query_post(
    context_id: uuid.UUID,
    body: QueryBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await run_query(svc, who, context_id, body.to_input())


@router.get("/api/v1/{context_id}/query")
async def query_get(
    context_id: uuid.UUID,
    query: str = Query("", max_length=4000),
    limit: int = Query(10, ge=1, le=100),
    scope: list[str] | None = Query(None),
    categories: list[Category] | None = Query(None),
    kinds: list[Kind] | None = Query(None),
    include_superseded: bool = Query(False, alias="includeSuperseded"),
    mode: Mode = Query("hybrid"),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    req = QueryInput(query, limit, scope, categories, kinds, include_superseded, mode)
    return await run_query(svc, who, context_id, req)


@router.get("/api/v1/{context_id}/profile")
async def profile(
    context_id: uuid.UUID,
    entity: str = Query("", max_length=400),
    history: bool = Query(False),
    scope: list[str] | None = Query(None),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await get_profile(svc, who, context_id, entity, history, scope)


@router.get("/api/v1/{context_id}/state")
async def state(
    context_id: uuid.UUID,
    scope: list[str] | None = Query(None),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await get_state(svc, who, context_id, scope)
