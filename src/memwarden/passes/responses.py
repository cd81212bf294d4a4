"""The answers of the pass routes: `runs.request_run` and `runs.get_run` return them."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from memwarden.answers import Answer, Timestamp


class PassStarted(Answer):
    runId: str = Field(description="Poll GET /passes/runs/{run_id}.")


class PassRun(Answer):
    runId: str
    stage: str
    trigger: str
    status: str
    counts: dict[str, Any] = Field(description="`inputs`, `written`, `dropped`, `held`.")
    errorCode: str | None
    createdAt: Timestamp
    startedAt: Timestamp | None
    finishedAt: Timestamp | None
