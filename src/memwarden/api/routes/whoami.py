"""`GET /api/v1/whoami`: the presented Context key's Context, principal and grants."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from memwarden.admin import whoami as whoami_uc
from memwarden.admin.whoami import WhoAmI
from memwarden.api.deps import caller, services
from memwarden.api.routes import AnswerRoute
from memwarden.domain.grants import Caller
from memwarden.services import Services

router = APIRouter(tags=["admin"], route_class=AnswerRoute)


@router.get("/api/v1/whoami")
async def whoami(svc: Services = Depends(services), who: Caller = Depends(caller)) -> WhoAmI:
    """Any valid Context key may ask, whatever its grants; the admin token gets 400
    `context_key_required` (it belongs to no Context)."""
    return await whoami_uc.whoami(svc.db, who)
