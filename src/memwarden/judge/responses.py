"""The answers of the review log routes: `review.list_entries` and `get_entry` (built by
`review.render`), `holds.decide`, `override.override` and `dry_run.dry_run` return them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from memwarden.answers import Answer
from memwarden.pipeline.responses import FactsResponse


class JudgementOverride(Answer):
    verdict: str
    by: str | None = None
    at: str | None = None


class JudgementScope(Answer):
    path: str
    visibility: str


class Judgement(Answer):
    """One entry of the review log: the judge's verdict and a reviewer's, side by side."""

    id: str
    gate: str = Field(description="`input` or `rows`.")
    verdict: str
    reasons: list[str]
    effective_verdict: str = Field(description="The override's verdict, else the judge's.")
    override: JudgementOverride | None
    source: str | None
    scope: JudgementScope = Field(description="The write's scope.")
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


class HoldChanges(Answer):
    """How much an approval released, or a rejection removed."""

    facts: int = Field(description="Records (facts, notes, entities...).")
    chunks: int
    turns: int


class HoldDecision(Answer):
    judgement: Judgement
    changed: HoldChanges


class ReplayedWrite(FactsResponse):
    """The replayed /facts write's answer, and where its turn went."""

    sessionReplay: Literal["stored", "new", "not_found"] = Field(
        description="`stored`: the session the request named; `new`: it named none; "
        "`not_found`: the one it named is gone or no longer the principal's."
    )


class OverrideResult(Answer):
    judgement: Judgement
    replay: str | None = Field(description="What became of the replay, when one was asked.")
    ingest: ReplayedWrite | None = Field(description="The replayed write's answer, if any.")


class VerdictPair(Answer):
    verdict: str | None = Field(description="Null when the judge could not answer.")
    reasons: list[str]
    error: str | None = Field(default=None, description="`judge_unavailable` when it failed.")


class DryRunEntry(Answer):
    """One tested (or skipped) judgement."""

    id: str
    gate: str | None = Field(default=None, description="Absent for an id that was not found.")
    source: str | None = None
    original: VerdictPair | None = None
    override: str | None = Field(default=None, description="A reviewer's verdict, if any.")
    candidate: VerdictPair | None = Field(default=None, description="Under the addendum.")
    current: VerdictPair | None = Field(default=None, description="With compareCurrent.")
    changed: bool | None = Field(default=None, description="The candidate differs.")
    skipped: Literal["not_found", "row_gate"] | None = Field(
        default=None, description="Why it was not tested."
    )


class DryRunResult(Answer):
    entries: list[DryRunEntry] = Field(description="Per judgement: original and candidate.")
    tested: int
    skipped: int
    changed: int
    matrix: dict[str, dict[str, int]] = Field(description="Original verdict to candidate's.")
    model: str | None
    note: str | None = Field(default=None, description="When no judge model answered.")
