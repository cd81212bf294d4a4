"""Recall over HTTP: /query (POST body or GET parameters), /profile and /state."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from memwarden.api.deps import caller, services
from memwarden.api.params import query_param
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.retrieval.contract import AS_OF, Category, Kind, Mode, ProfileQuery, QueryBody
from memwarden.retrieval.profile import get_profile
from memwarden.retrieval.query import QueryInput, run_query
from memwarden.retrieval.responses import ProfileResponse, QueryResponse, StateResponse
from memwarden.retrieval.state import get_state
from memwarden.services import Services
from memwarden.text import StorableText

router = APIRouter(tags=["recall"], route_class=AnswerRoute)


def as_of_param(model: type[BaseModel]) -> Any:
    """`as_of` as a query parameter, documented as the request models document it."""
    return query_param(model, "as_of", description=AS_OF, json_schema_extra={"format": "date-time"})


@router.post("/api/v1/{context_id}/query")
async def query_post(
    context_id: uuid.UUID,
    body: QueryBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> QueryResponse:
    return await run_query(svc, who, context_id, body.to_input())


@router.get("/api/v1/{context_id}/query")
async def query_get(
    context_id: uuid.UUID,
    query: StorableText = query_param(QueryBody, "query"),
    limit: int = query_param(QueryBody, "limit"),
    scope: list[StorableText] | None = query_param(QueryBody, "scope"),
    categories: list[Category] | None = query_param(QueryBody, "categories"),
    kinds: list[Kind] | None = query_param(QueryBody, "kinds"),
    include_superseded: bool = query_param(QueryBody, "include_superseded"),
    mode: Mode = query_param(QueryBody, "mode"),
    as_of: str | None = as_of_param(QueryBody),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> QueryResponse:
    """The same fields as POST /query, bounded by the same model (`query` required)."""
    req = QueryInput(query, limit, scope, categories, kinds, include_superseded, mode, as_of=as_of)
    return await run_query(svc, who, context_id, req)


@router.get("/api/v1/{context_id}/profile")
async def profile(
    context_id: uuid.UUID,
    entity: StorableText | None = query_param(ProfileQuery, "entity"),
    history: bool = query_param(ProfileQuery, "history"),
    scope: list[StorableText] | None = query_param(ProfileQuery, "scope"),
    speaker: StorableText | None = query_param(ProfileQuery, "speaker"),
    as_of: str | None = as_of_param(ProfileQuery),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ProfileResponse:
    return await get_profile(svc, who, context_id, entity, history, scope, speaker, as_of)


@router.get("/api/v1/{context_id}/state")
async def state(
    context_id: uuid.UUID,
    scope: list[StorableText] | None = query_param(ProfileQuery, "scope"),
    as_of: str | None = as_of_param(ProfileQuery),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> StateResponse:
    return await get_state(svc, who, context_id, scope, as_of)
