"""/health: database, worker and model providers; /metrics: the process's counters."""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import PlainTextResponse

from memwarden import __version__
from memwarden.api.deps import services
from memwarden.api.routes import AnswerRoute
from memwarden.health import HealthReport, check_health, public_view
from memwarden.services import Services

router = APIRouter(tags=["health"], route_class=AnswerRoute)


def _is_operator(request: Request, svc: Services) -> bool:
    """The admin token (Bearer) sees the full report; any other header, or none, the
    public one. A plain comparison: /health must not query the database for keys."""
    if svc.settings.admin_token is None:
        return False
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    expected = svc.settings.admin_token.get_secret_value()
    return hmac.compare_digest(token.strip().encode(), expected.encode())


@router.get(
    "/health",
    responses={
        200: {"description": "Every part is up (`status`: `ok`)."},
        503: {
            "model": HealthReport,
            "description": "A part is down (`status`: `down`, the database) or degraded "
            "(`degraded`: no worker, or a configured model provider failing its check).",
        },
    },
)
async def health(
    request: Request, response: Response, svc: Services = Depends(services)
) -> HealthReport:
    """Public: status and component states. With the admin token: versions, provider
    hosts, the worker, inactive settings."""
    report = await check_health(svc)
    response.status_code = 200 if report.status == "ok" else 503
    response.headers["Cache-Control"] = "no-store"
    if _is_operator(request, svc):
        report.version = __version__
        return report
    return public_view(report)


# Process-wide counters in `services.write_counters`, as Prometheus counters (help text).
METRICS = {
    "extraction_windows_run": "Extraction windows sent to a model (turns and documents).",
    "extraction_windows_failed": "Extraction windows whose reply could not be parsed or used.",
    "extraction_dropped_chars": "Characters of turns past the extraction window limit.",
    "extraction_dropped_bytes": "UTF-8 bytes of turns past the extraction window limit.",
}


def prometheus_text(counters: Mapping[str, int]) -> str:
    """The Prometheus text exposition format (0.0.4), one counter per name."""
    lines: list[str] = []
    for name, help_text in METRICS.items():
        metric = f"memwarden_{name}_total"
        lines += [
            f"# HELP {metric} {help_text}",
            f"# TYPE {metric} counter",
            f"{metric} {counters.get(name, 0)}",
        ]
    return "\n".join(lines) + "\n"


# Each line a `# HELP`/`# TYPE` comment or a sample (`name value`), each ended by "\n".
METRICS_LINES = r"^((# (HELP|TYPE) [^\n]*|[a-zA-Z_:][a-zA-Z0-9_:]* [^\n]+)\n)*$"
METRICS_ANSWER = (
    "The Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`): a "
    "`# HELP` and a `# TYPE ... counter` line, then the value, for each counter."
)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={
        200: {
            "description": METRICS_ANSWER,
            "content": {"text/plain": {"schema": {"type": "string", "pattern": METRICS_LINES}}},
        }
    },
)
async def metrics(svc: Services = Depends(services)) -> PlainTextResponse:
    """This process's totals since it started (no Context ids, no content), so like /health
    it needs no credential; per-Context figures are in GET /api/v1/{context}/usage."""
    return PlainTextResponse(
        prometheus_text(svc.write_counters),
        media_type="text/plain; version=0.0.4; charset=utf-8",
        headers={"Cache-Control": "no-store"},
    )
