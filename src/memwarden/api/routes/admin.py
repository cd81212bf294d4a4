"""Admin routes: Contexts, keys, configuration."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Body, Depends, Query

from memwarden.admin import contexts, keys, settings_service
from memwarden.admin.contract import CreateContext, CreateKey
from memwarden.admin.responses import (
    ContextInfo,
    ContextList,
    CreatedContext,
    IssuedKey,
    KeyList,
    RevokedKey,
)
from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.config import ContextConfig
from memwarden.domain.grants import Caller
from memwarden.services import Services

router = APIRouter(prefix="/api/v1/contexts", tags=["admin"], route_class=AnswerRoute)


@router.post("", status_code=201)
async def create_context(
    body: CreateContext, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> CreatedContext:
    return await contexts.create_context(svc.db, who, body.name, owner=body.owner_subject)


@router.get("")
async def list_contexts(
    cursor: str | None = Query(None, max_length=64, description="next_cursor of the last page"),
    limit: int = Query(100, ge=1, le=contexts.MAX_PAGE),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ContextList:
    return await contexts.list_contexts(svc.db, who, cursor=cursor, limit=limit)


@router.get("/{context_id}")
async def get_context(
    context_id: uuid.UUID, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> ContextInfo:
    return await contexts.get_context(svc.db, who, context_id)


@router.post("/{context_id}/keys", status_code=201)
async def create_key(
    context_id: uuid.UUID,
    body: CreateKey,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> IssuedKey:
    return await keys.create_key(
        svc.db,
        who,
        context_id,
        subject=body.subject,
        grants=body.grants,
        scope=body.scope,
        expires_at=body.expires_at,
    )


@router.get("/{context_id}/keys")
async def list_keys(
    context_id: uuid.UUID,
    cursor: str | None = Query(None, max_length=64, description="next_cursor of the last page"),
    limit: int = Query(100, ge=1, le=keys.MAX_PAGE),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> KeyList:
    return await keys.list_keys(svc.db, who, context_id, cursor=cursor, limit=limit)


@router.delete("/{context_id}/keys/{key_id}")
async def revoke_key(
    context_id: uuid.UUID,
    key_id: uuid.UUID,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> RevokedKey:
    return await keys.revoke_key(svc.db, who, context_id, key_id)


@router.get("/{context_id}/config")
async def get_config(
    context_id: uuid.UUID, svc: Services = Depends(services), who: Caller = Depends(caller)
) -> ContextConfig:
    return await settings_service.get_config(svc.db, who, context_id)


@router.patch("/{context_id}/config")
async def patch_config(
    context_id: uuid.UUID,
    patch: dict[str, Any] = Body(...),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ContextConfig:
    return await settings_service.patch_config(svc.db, who, context_id, patch)
