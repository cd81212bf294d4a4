"""Response bodies of the pass routes, declared for /openapi.json only (`responses=` on
`api/routes/passes.py`; `runs.start` and `runs.render` build them). Extra keys are
allowed."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    """A documented answer: the fields below, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


class PassStarted(Described):
    runId: str = Field(description="Poll GET /passes/runs/{run_id}.")


class PassRun(Described):
    runId: str
    stage: str
    trigger: str
    status: str
    counts: dict[str, Any] = Field(description="`inputs`, `written`, `dropped`, `held`.")
    errorCode: str | None
    createdAt: str
    startedAt: str | None
    finishedAt: str | None
