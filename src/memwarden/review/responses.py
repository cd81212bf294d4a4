"""The answers of the memory contract routes and the change feed: `commands.run_command`,
`records`, `decisions.decide`, `history`, `diagnostic.eligibility` and `feed.list_changes`
return them (`render` builds a record and a receipt)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from memwarden.answers import Answer, RecordContent
from memwarden.domain.revision_cause import RevisionCause


class CommandJudgement(Answer):
    """What the ingest judge decided about a command's content (a refusal is an error)."""

    verdict: Literal["pass", "warn"] | None = Field(
        description="None when the Context's judge (or its input gate) is off, or the judge "
        "failed under on_error=allow and the detectors found nothing."
    )
    reasons: list[str] = Field(description="Reason codes of a warn; never content.")
    judgement_id: str | None = Field(
        description="The review-log entry, when one was recorded (a held write always has one)."
    )


class CommandResult(Answer):
    contract_version: int
    record_id: str
    revision: int = Field(description="The record's revision after the command.")
    held: bool = Field(
        default=False,
        description="The judge held the content: stored hidden from every read until a "
        "reviewer approves the judgement (`judgement.judgement_id`).",
    )
    judgement: CommandJudgement | None = Field(
        default=None, description="Only on a command that carries content."
    )


class Receipt(Answer):
    """One review decision, as stored (`render.receipt`)."""

    contract_version: int
    receipt_id: str
    record_id: str
    revision: int
    disposition: str
    reviewer: str | None
    credential_id: str | None
    evidence_ref: str | None = Field(description="The reviewer's reference, as sent.")
    decided_at: str | None
    idempotency_key: str | None


class ReceiptAnswer(Answer):
    """POST /memory/reviews (a replayed decision answers its first receipt) and
    /memory/reviews/read."""

    contract_version: int
    receipt: Receipt


class ReviewObject(Answer):
    disposition: str
    revision: int | None
    receipt_id: str
    reviewer: str | None
    decided_at: str | None


class RecordState(Answer):
    record_id: str
    revision: int
    review: ReviewObject | None = Field(description="The current decision, if any.")
    deleted: bool
    expired: bool


class ContractScope(Answer):
    """The contract's scope object (`contract.ScopeIn`)."""

    project_id: str | None
    mission_id: str | None
    agent_id: str | None
    visibility: str


class RecordScope(ContractScope):
    """A record's scope: the ids its path names (all null when the path follows no
    project/mission/agent form) and the path itself."""

    path: str


class ReviewStateAnswer(Answer):
    contract_version: int
    scope: ContractScope = Field(description="The scope the request named, as sent.")
    state: RecordState


class ContractRecord(Answer):
    """A servable record as the memory contract shows it (`render.record`)."""

    id: str
    revision: int
    kind: str
    memory_category: str | None
    content: RecordContent = Field(description="The stored JSON as it is, by kind.")
    body: str | None
    scope: RecordScope = Field(description="The ids the path names, `visibility`, `path`.")
    author: str | None
    review: ReviewObject | None
    created_at: str | None
    modified_at: str | None
    modified_at_millis: int
    expires_at: str | None
    derived_from: list[str] | None = Field(default=None, description="Only on a derived record.")
    derived_by: str | None = Field(default=None, description="Only on a derived record: the pass.")


class ReadAnswer(Answer):
    contract_version: int
    record: ContractRecord


class SearchHit(Answer):
    record: ContractRecord
    score: float | None
    lexical_rank: int | None
    vector_rank: int | None


class SearchAnswer(Answer):
    contract_version: int
    mode: str
    hits: list[SearchHit]


class EmbeddingAnswer(Answer):
    contract_version: int
    record_id: str
    revision: int
    model: str | None
    dimensions: int


class ChangeEntry(Answer):
    """One change of the feed: ids only, never content (`feed._entry`)."""

    seq: int = Field(description="The Context's change number, in commit order.")
    record_id: str | None
    revision: int | None
    kind: str
    entry_type: str = Field(
        description="`created`, `updated`, `deleted`, `superseded`, `reviewed`, `released` "
        "(a held write approved), `restored`."
    )
    at: str


class ChangePage(Answer):
    """GET /memory/changes: oldest first."""

    changes: list[ChangeEntry]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class BlockingRecord(Answer):
    record_id: str = Field(description="The record itself (depth 0) or one of its sources.")
    reason: Literal[
        "deleted", "rejected", "held", "superseded", "invalidated", "expired", "restricted"
    ] = Field(description="`restricted`: a source the caller may not see.")
    depth: int = Field(description="0 for the record, 1 for its sources, and so on.")


class EligibilityAnswer(Answer):
    """POST /memory/reviews/eligibility (`diagnostic.eligibility`)."""

    contract_version: int
    record_id: str
    servable: bool
    blocking: BlockingRecord | None = Field(description="The first record that blocks it.")


class HistoryRevision(Answer):
    """One revision of a record, content-free (`review.timeline.record_history`)."""

    revision: int
    op: str = Field(
        description="What changed: `create`, `update`, `delete`, `review`, `supersede`, "
        "`release`, `restore`, `erase`."
    )
    cause: RevisionCause = Field(
        description="Why: `write`, `correction` (a write's new value of a key, a stated "
        "correction, a command's edit), `declared_supersede`, `hygiene_resolution`, "
        "`consolidation`, `review_decision`, `restore`, `delete`, `erasure`; `unknown` for "
        "a supersede from before causes were stored."
    )
    author: str = Field(description="The principal whose request made this revision.")
    recorded_at: str
    until: str | None = Field(description="When the next revision replaced it; null: current.")
    valid_from: str | None = Field(description="The record's validity as this revision left it.")
    valid_to: str | None
    replaced_by: str | None = Field(description="The record that took this one's place.")
    tombstone: bool = Field(description="Its content is erased (ids, kinds and times stay).")


class RecordHistory(Answer):
    """GET /{context_id}/memories/{record_id}/history: newest revision first."""

    record_id: str
    kind: str
    serving: str = Field(description="Now: live, held, superseded, deleted or erased.")
    author: str = Field(description="The principal that wrote the record.")
    speaker: str | None = Field(description="Who said the turn it came from (`user:<id>` ...).")
    source_kind: str
    created_at: str
    revisions: list[HistoryRevision]
    next_cursor: str | None = Field(description="Pass as `cursor` for older revisions.")
