"""The change feed, audit log and usage breakdown: parse, authenticate, call the use case."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, Query

from memwarden.admin import audit as audit_log_uc
from memwarden.admin import usage as usage_uc
from memwarden.admin.responses import AuditPage, UsageAnswer
from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.review import feed as feed_uc
from memwarden.review.responses import ChangePage
from memwarden.services import Services

router = APIRouter(tags=["feed"], route_class=AnswerRoute)


@router.get("/api/v1/memory/changes")
async def changes(
    cursor: str | None = Query(None, max_length=19, description="next_cursor of the last page"),
    limit: int = Query(100, ge=1, le=feed_uc.MAX_PAGE),
    after: int | None = Query(None, ge=0, include_in_schema=False, deprecated=True),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ChangePage:
    """Ordered per Context; the tenant is the key's. Entries carry ids, never content.

    `after=<seq>` is the older spelling of `cursor=<seq>`, still accepted.
    """
    if cursor is None and after is not None:
        cursor = str(after)
    return await feed_uc.list_changes(svc.db, who, cursor=cursor, limit=limit)


@router.get("/api/v1/{context_id}/audit")
async def audit_log(
    context_id: uuid.UUID,
    cursor: str | None = Query(None, max_length=64, description="next_cursor of the last page"),
    limit: int = Query(50, ge=1, le=audit_log_uc.MAX_PAGE),
    action: str | None = Query(None, description="keep actions starting with this"),
    before: uuid.UUID | None = Query(None, include_in_schema=False, deprecated=True),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> AuditPage:
    """Newest first. `before=<id>` is the older spelling of `cursor=<id>`, still accepted."""
    if cursor is None and before is not None:
        cursor = str(before)
    return await audit_log_uc.list_audit(
        svc.db, who, context_id, cursor=cursor, limit=limit, action=action
    )


@router.get("/api/v1/{context_id}/usage")
async def usage(
    context_id: uuid.UUID,
    days: int = Query(30, ge=1, le=usage_uc.MAX_DAYS),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> UsageAnswer:
    return await usage_uc.usage_breakdown(svc.db, who, context_id, days=days)
