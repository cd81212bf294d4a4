"""The passes' service tier: runs requested and executed as the task would execute them."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.passes.runs import execute, get_run, request_run
from tests.support.services import ContextKey, ServiceHarness, as_json


def run_pass(h: ServiceHarness, ctx: ContextKey, stage: str) -> dict[str, Any]:
    """POST .../passes/{stage}/run, then the queued job executed; the run as GET shows it."""
    run_id = uuid.UUID(h.run(request_run(h.services, ctx.caller, ctx.id, stage)).runId)
    h.run(execute(h.services, ctx.id, run_id))
    return as_json(h.run(get_run(h.services, ctx.caller, ctx.id, run_id)))
