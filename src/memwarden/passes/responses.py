"""The answers of the pass routes: `runs.request_run` and `runs.get_run` return them."""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer, Timestamp


class PassStarted(Answer):
    runId: str = Field(description="Poll GET /passes/runs/{run_id}.")


class PassCounts(Answer):
    inputs: int = Field(description="Units the pass read.")
    written: int
    dropped: int = Field(description="Rows the row gate dropped.")
    held: int


class PassRun(Answer):
    runId: str
    stage: str
    trigger: str
    status: str
    counts: PassCounts
    errorCode: str | None
    createdAt: Timestamp
    startedAt: Timestamp | None
    finishedAt: Timestamp | None
