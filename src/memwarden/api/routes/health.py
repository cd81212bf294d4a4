"""/health: database, worker and model providers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from memwarden import __version__
from memwarden.api.deps import services
from memwarden.health import check_health
from memwarden.services import Services

router = APIRouter(tags=["health"])


@router.get("/health")
async def health(svc: Services = Depends(services)) -> JSONResponse:
    report: dict[str, Any] = await check_health(svc)
    report["version"] = __version__
    status = 200 if report["status"] == "ok" else 503
    return JSONResponse(report, status_code=status, headers={"Cache-Control": "no-store"})
