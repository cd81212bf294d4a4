"""The answers of the review log routes: `review.list_entries` and `get_entry` (built by
`review.render`), `holds.decide`, `override.override` and `dry_run.dry_run` return them."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from memwarden.answers import Answer


class JudgementOverride(Answer):
    verdict: str
    by: str | None = None
    at: str | None = None


class Judgement(Answer):
    """One entry of the review log: the judge's verdict and a reviewer's, side by side."""

    id: str
    gate: str = Field(description="`input` or `rows`.")
    verdict: str
    reasons: list[str]
    effective_verdict: str = Field(description="The override's verdict, else the judge's.")
    override: JudgementOverride | None
    source: str | None
    scope: dict[str, Any] = Field(description="`path` and `visibility`.")
    excerpt: str | None
    row_count: int | None
    held: bool | None
    hold_decision: str | None
    hold_decided_at: str | None
    retained: bool | None
    replay: str | None
    turn_id: str | None
    document_id: str | None
    principal_id: str | None
    key_id: str | None
    created_at: str | None


class JudgementList(Answer):
    judgements: list[Judgement]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class HoldDecision(Answer):
    judgement: Judgement
    changed: dict[str, Any] = Field(description="How many `facts`, `chunks` and `turns` moved.")


class OverrideResult(Answer):
    judgement: Judgement
    replay: str | None = Field(description="What became of the replay, when one was asked.")
    ingest: dict[str, Any] | None = Field(description="The replayed write's answer, if any.")


class DryRunResult(Answer):
    entries: list[dict[str, Any]] = Field(description="Per judgement: original and candidate.")
    tested: int
    skipped: int
    changed: int
    matrix: dict[str, dict[str, int]] = Field(description="Original verdict to candidate's.")
    model: str | None
    note: str | None = Field(default=None, description="When no judge model answered.")
