# Generated from memwarden's /openapi.json by `python clients/python/scripts/generate_models.py`: do not edit.
# ruff: noqa: E501

from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, RootModel


class ActionContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    actor: str = Field(..., title="Actor")
    label: str = Field(..., title="Label")
    object: str = Field(..., title="Object")


class AttributeContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    entity: str = Field(..., title="Entity")
    key: str = Field(..., title="Key")
    value: str = Field(..., title="Value")


class AuditEvent(BaseModel):
    """
    Who did what to which id; never content (`audit._event`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    action: str = Field(
        ..., description="Dotted, e.g. `config.update`, `hygiene.resolve`.", title="Action"
    )
    actor: str = Field(
        ..., description="A key's subject, `admin`, or a job such as `hygiene`.", title="Actor"
    )
    at: str = Field(..., title="At")
    id: str = Field(..., title="Id")
    key_id: str | None = Field(
        ..., description="The key used; null for the admin token.", title="Key Id"
    )
    target_id: str | None = Field(..., title="Target Id")
    target_kind: str = Field(..., title="Target Kind")


class AuditPage(BaseModel):
    """
    GET /{context_id}/audit: newest first.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    events: list[AuditEvent] = Field(..., title="Events")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class BlockingRecord(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    depth: int = Field(
        ..., description="0 for the record, 1 for its sources, and so on.", title="Depth"
    )
    reason: Literal[
        "deleted", "rejected", "held", "superseded", "invalidated", "expired", "restricted"
    ] = Field(..., description="`restricted`: a source the caller may not see.", title="Reason")
    record_id: str = Field(
        ..., description="The record itself (depth 0) or one of its sources.", title="Record Id"
    )


class Scope(RootModel[str]):
    root: str = Field(..., max_length=512, title="Scope")


class BodyUploadApiV1ContextIdDocumentsPost(BaseModel):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    file: str = Field(
        ..., json_schema_extra={"contentMediaType": "application/octet-stream"}, title="File"
    )
    scope: Scope | None = Field(None, title="Scope")
    visibility: Literal["shared", "private"] | None = Field("shared", title="Visibility")


class CandidateRecord(BaseModel):
    """
    A near neighbour the written record may replace.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    id: str = Field(..., title="Id")
    kind: str = Field(..., title="Kind")
    similarity: float = Field(..., title="Similarity")
    text: str = Field(..., title="Text")


class ChallengeBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    reason: str = Field(..., max_length=2000, min_length=1, title="Reason")


class ChangeEntry(BaseModel):
    """
    One change of the feed: ids only, never content (`feed._entry`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    at: str = Field(..., title="At")
    entry_type: str = Field(
        ...,
        description="`created`, `updated`, `deleted`, `superseded`, `reviewed`, `released` (a held write approved), `restored`.",
        title="Entry Type",
    )
    kind: str = Field(..., title="Kind")
    record_id: str | None = Field(..., title="Record Id")
    revision: int | None = Field(..., title="Revision")
    seq: int = Field(..., description="The Context's change number, in commit order.", title="Seq")


class ChangePage(BaseModel):
    """
    GET /memory/changes: oldest first.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    changes: list[ChangeEntry] = Field(..., title="Changes")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class Scope1(RootModel[list[str]]):
    root: list[str] = Field(..., max_length=16, title="Scope")


class ChatBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    limit: int | None = Field(8, ge=1, le=50, title="Limit")
    message: str = Field(..., max_length=16000, title="Message")
    remember: bool | None = Field(True, title="Remember")
    scope: Scope1 | None = Field(None, title="Scope")
    session_id: UUID | None = Field(None, alias="sessionId", title="Sessionid")
    visibility: Literal["shared", "private"] | None = Field("shared", title="Visibility")


class ChatStreamErrorDetail(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    code: str = Field(..., description="`model_provider_error` or `internal_error`.", title="Code")
    message: str = Field(..., title="Message")


class ChatStreamToken(BaseModel):
    """
    A piece of the answer; the answer is the `text` of every token event, in order.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    text: str = Field(..., title="Text")


class ChatStreamUsage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    completion_tokens: int = Field(..., alias="completionTokens", title="Completiontokens")
    prompt_tokens: int = Field(..., alias="promptTokens", title="Prompttokens")


class CitedMemory(BaseModel):
    """
    A memory the answer was given, as chat cites it (`service._cited`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    gist: str | None = Field(None, description="Only on a document's chunk.", title="Gist")
    id: str = Field(..., title="Id")
    kind: str = Field(..., title="Kind")
    score: float | None = Field(..., title="Score")
    text: str | None = Field(..., title="Text")


class CommandJudgement(BaseModel):
    """
    What the ingest judge decided about a command's content (a refusal is an error).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    judgement_id: str | None = Field(
        ...,
        description="The review-log entry, when one was recorded (a held write always has one).",
        title="Judgement Id",
    )
    reasons: list[str] = Field(
        ..., description="Reason codes of a warn; never content.", title="Reasons"
    )
    verdict: Literal["pass", "warn"] | None = Field(
        ...,
        description="None when the Context's judge (or its input gate) is off, or the judge failed under on_error=allow and the detectors found nothing.",
        title="Verdict",
    )


class CommandResult(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    held: bool | None = Field(
        False,
        description="The judge held the content: stored hidden from every read until a reviewer approves the judgement (`judgement.judgement_id`).",
        title="Held",
    )
    judgement: CommandJudgement | None = Field(
        None, description="Only on a command that carries content."
    )
    record_id: str = Field(..., title="Record Id")
    revision: int = Field(
        ..., description="The record's revision after the command.", title="Revision"
    )


class ContextInfo(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    created_at: str = Field(..., title="Created At")
    id: str = Field(..., title="Id")
    name: str = Field(..., title="Name")


class ContextList(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contexts: list[ContextInfo] = Field(..., title="Contexts")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class ContractScope(BaseModel):
    """
    The contract's scope object (`contract.ScopeIn`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    agent_id: str | None = Field(..., title="Agent Id")
    mission_id: str | None = Field(..., title="Mission Id")
    project_id: str | None = Field(..., title="Project Id")
    visibility: str = Field(..., title="Visibility")


class OwnerSubject(RootModel[str]):
    root: str = Field(..., max_length=200, min_length=1, title="Owner Subject")


class CreateContext(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    name: str = Field(..., max_length=200, min_length=1, title="Name")
    owner_subject: OwnerSubject | None = Field(None, title="Owner Subject")


class Scope2(RootModel[str]):
    root: str = Field(..., max_length=512, title="Scope")


class CreateKey(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    expires_at: AwareDatetime | None = Field(None, title="Expires At")
    grants: list[str] = Field(..., max_length=8, min_length=1, title="Grants")
    scope: Scope2 | None = Field(None, title="Scope")
    subject: str = Field(..., max_length=200, min_length=1, title="Subject")


class CreateWebhook(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    description: str | None = Field("", max_length=500, title="Description")
    events: list[str] = Field(
        ...,
        description="Event kinds, among created, updated, superseded, deleted, reviewed, held, released, judge_fail, hygiene_queued (docs/webhooks.md).",
        max_length=18,
        min_length=1,
        title="Events",
    )
    include_content: bool | None = Field(
        False,
        description="Carry the record's content when the creating key could read it now.",
        title="Include Content",
    )
    url: str = Field(
        ..., description="http(s) endpoint.", max_length=2048, min_length=1, title="Url"
    )


class CreatedWebhook(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    consecutive_failures: int = Field(..., title="Consecutive Failures")
    created_at: AwareDatetime = Field(..., title="Created At")
    created_by: str = Field(
        ..., description="The subject of the key that created it.", title="Created By"
    )
    description: str = Field(..., title="Description")
    events: list[str] = Field(..., title="Events")
    id: str = Field(..., title="Id")
    include_content: bool = Field(..., title="Include Content")
    key_id: str | None = Field(
        ..., description="The key whose read grants decide content.", title="Key Id"
    )
    paused_reason: Literal["gone", "failures", "manual"] | None = Field(
        ...,
        description="gone: the receiver answered 410; failures: too many failed attempts in a row; manual: paused by PATCH.",
        title="Paused Reason",
    )
    secret: str = Field(
        ..., description="The signing secret (`whsec_...`); shown only here.", title="Secret"
    )
    status: Literal["active", "paused"] = Field(..., title="Status")
    updated_at: AwareDatetime = Field(..., title="Updated At")
    url: str = Field(..., title="Url")


class DatabaseHealth(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    embedded: bool | None = Field(
        None, description="Operator: the embedded PostgreSQL.", title="Embedded"
    )
    error: str | None = Field(
        None, description="Operator, when down: the error's type.", title="Error"
    )
    pgvector: str | None = Field(
        None, description="Operator: null when not installed.", title="Pgvector"
    )
    schema_version: int | None = Field(
        None, description="Operator: the last migration.", title="Schema Version"
    )
    status: Literal["ok", "down"] = Field(..., title="Status")
    version: str | None = Field(
        None, description="Operator, when up: the server's version.", title="Version"
    )


class DeclaredSupersede(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    applied: bool = Field(
        ..., description="The record was retired by this write's own record.", title="Applied"
    )
    id: str = Field(..., title="Id")
    reason: str | None = Field(
        None,
        description="Why not: `held` (a held write replaces nothing), `no_replacement` (the write stored no new record), or a replacement rule's reason (e.g. `replacement_not_served`); null when applied or when the record had already left serving.",
        title="Reason",
    )


class DeletedWebhook(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    deleted: bool | None = Field(True, title="Deleted")
    id: str = Field(..., title="Id")


class Delivery(BaseModel):
    """
    One event for one subscription and its latest attempt (never the body sent).
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    attempts: int = Field(..., title="Attempts")
    delivered_at: AwareDatetime | None = Field(..., title="Delivered At")
    event_id: str = Field(
        ..., description="The event's id (`feed:<seq>`, `judgement:<id>`, ...).", title="Event Id"
    )
    event_type: str = Field(..., title="Event Type")
    feed_id: int | None = Field(
        ..., description="The change-feed seq, for feed events.", title="Feed Id"
    )
    id: str = Field(
        ..., description="Sent as Memwarden-Delivery; the same on every attempt.", title="Id"
    )
    last_attempt_at: AwareDatetime | None = Field(..., title="Last Attempt At")
    last_error: str | None = Field(
        ...,
        description="Error class of the last failed attempt: http_status, gone, timeout, connect, transport, forbidden_host.",
        title="Last Error",
    )
    last_status_code: int | None = Field(..., title="Last Status Code")
    next_attempt_at: AwareDatetime | None = Field(..., title="Next Attempt At")
    occurred_at: AwareDatetime = Field(..., title="Occurred At")
    status: Literal["pending", "delivered", "failed"] = Field(..., title="Status")


class DeliveryList(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    deliveries: list[Delivery] = Field(..., title="Deliveries")
    next_cursor: str | None = Field(..., title="Next Cursor")


class DiffAction(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    actor: str = Field(..., title="Actor")
    id: str = Field(..., title="Id")
    is_new: bool = Field(..., alias="isNew", title="Isnew")
    label: str = Field(..., title="Label")
    memory_category: str = Field(..., alias="memoryCategory", title="Memorycategory")
    object: str = Field(
        ..., description="A known entity's name, or the action's text.", title="Object"
    )


class DiffAttribute(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    entity_id: str = Field(..., alias="entityId", title="Entityid")
    id: str = Field(..., title="Id")
    is_new: bool = Field(..., alias="isNew", title="Isnew")
    key: str = Field(..., title="Key")
    memory_category: str = Field(..., alias="memoryCategory", title="Memorycategory")
    value: str = Field(..., title="Value")


class DiffCorrection(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    applied: bool = Field(..., title="Applied")
    entity: str = Field(..., title="Entity")
    entity_id: str = Field(..., alias="entityId", title="Entityid")
    id: str | None = Field(
        ..., description="The corrected value's record; null when none was written.", title="Id"
    )
    key: str = Field(..., title="Key")
    new_value: str = Field(..., alias="newValue", title="Newvalue")
    old_value: str | None = Field(..., alias="oldValue", title="Oldvalue")
    superseded_ids: list[str] = Field(
        ...,
        alias="supersededIds",
        description="The records the correction retired.",
        title="Supersededids",
    )


class DiffEntity(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    entity_type: str = Field(..., alias="entityType", title="Entitytype")
    id: str = Field(..., title="Id")
    is_new: bool = Field(..., alias="isNew", title="Isnew")
    memory_category: str = Field(..., alias="memoryCategory", title="Memorycategory")
    name: str = Field(..., title="Name")


class DiffInstruction(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    description: str = Field(..., title="Description")
    id: str = Field(..., title="Id")
    is_new: bool = Field(..., alias="isNew", title="Isnew")
    label: str = Field(..., title="Label")


class DiffRelation(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    id: str = Field(..., title="Id")
    is_new: bool = Field(..., alias="isNew", title="Isnew")
    label: str = Field(..., title="Label")
    memory_category: str = Field(..., alias="memoryCategory", title="Memorycategory")
    object: str = Field(..., description="The object entity's name.", title="Object")
    subject: str = Field(..., title="Subject")


class DiffUncertainty(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    about: str = Field(..., title="About")
    id: str = Field(..., title="Id")
    is_new: bool = Field(..., alias="isNew", title="Isnew")
    reason: str = Field(..., title="Reason")


class DocumentDeleted(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    deleted: bool = Field(..., title="Deleted")
    id: str = Field(..., title="Id")
    records_retired: int = Field(..., alias="recordsRetired", title="Recordsretired")


class DocumentExtraction(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    chunk_only: bool = Field(..., alias="chunkOnly", title="Chunkonly")
    windows: int | None = Field(..., title="Windows")
    windows_failed: int = Field(..., alias="windowsFailed", title="Windowsfailed")


class DocumentResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    chunks: int | None = Field(None, description="Once processed: how many chunks.", title="Chunks")
    content_type: str | None = Field(None, alias="contentType", title="Contenttype")
    created_at: str = Field(..., alias="createdAt", title="Createdat")
    extraction: DocumentExtraction | None = None
    failure_code: str | None = Field(None, alias="failureCode", title="Failurecode")
    failure_reasons: list[str] = Field(
        ...,
        alias="failureReasons",
        description="A failed document's judge reason codes.",
        title="Failurereasons",
    )
    filename: str = Field(..., title="Filename")
    gist: str | None = Field(
        None, description="Written by the gist pass, when it ran.", title="Gist"
    )
    id: str = Field(..., title="Id")
    scope: str | None = Field(None, title="Scope")
    size_bytes: int = Field(..., alias="sizeBytes", title="Sizebytes")
    status: str = Field(..., description="queued, processing, processed or failed.", title="Status")
    visibility: str = Field(..., title="Visibility")


class JudgementIds(RootModel[list[UUID]]):
    root: list[UUID] = Field(..., max_length=50, min_length=1, title="Judgementids")


class DryRunBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    addendum: str = Field(..., max_length=4000, title="Addendum")
    compare_current: bool | None = Field(False, alias="compareCurrent", title="Comparecurrent")
    judgement_ids: JudgementIds | None = Field(None, alias="judgementIds", title="Judgementids")
    limit: int | None = Field(20, ge=1, le=50, title="Limit")
    verdict: Literal["pass", "warn", "fail"] | None = Field(None, title="Verdict")


class EligibilityAnswer(BaseModel):
    """
    POST /memory/reviews/eligibility (`diagnostic.eligibility`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    blocking: BlockingRecord | None = Field(..., description="The first record that blocks it.")
    contract_version: int = Field(..., title="Contract Version")
    record_id: str = Field(..., title="Record Id")
    servable: bool = Field(..., title="Servable")


class EmbeddingAnswer(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    dimensions: int = Field(..., title="Dimensions")
    model: str | None = Field(..., title="Model")
    record_id: str = Field(..., title="Record Id")
    revision: int = Field(..., title="Revision")


class VectorItem(RootModel[float]):
    root: float = Field(..., ge=-3.4e38, le=3.4e38)


class EntityContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    entity_type: str = Field(..., alias="entityType", title="Entitytype")
    name: str = Field(..., title="Name")


class RecordIds(RootModel[list[UUID]]):
    root: list[UUID] = Field(
        ..., description="Records to erase.", max_length=1000, min_length=1, title="Recordids"
    )


class ScopePrefix(RootModel[str]):
    root: str = Field(
        ..., description="Everything at or below a scope.", max_length=1000, title="Scopeprefix"
    )


class Subject(RootModel[str]):
    root: str = Field(
        ...,
        description="A principal: everything it wrote and every record about its own entity.",
        max_length=200,
        min_length=1,
        title="Subject",
    )


class ErasureBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    document_id: UUID | None = Field(None, alias="documentId", title="Documentid")
    record_ids: RecordIds | None = Field(
        None, alias="recordIds", description="Records to erase.", title="Recordids"
    )
    scope_prefix: ScopePrefix | None = Field(
        None,
        alias="scopePrefix",
        description="Everything at or below a scope.",
        title="Scopeprefix",
    )
    session_id: UUID | None = Field(None, alias="sessionId", title="Sessionid")
    speaker: str | None = Field(
        None,
        description="An end user id (`user/<id>` scopes): what they said and what is about them.",
        title="Speaker",
    )
    subject: Subject | None = Field(
        None,
        description="A principal: everything it wrote and every record about its own entity.",
        title="Subject",
    )


class ErasureCounts(BaseModel):
    """
    How many of each kind an erasure removed (`COUNT_KINDS`, 0 until it ran).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    chunks: int = Field(..., title="Chunks")
    derived_records: int = Field(..., title="Derived Records")
    documents: int = Field(..., title="Documents")
    files: int = Field(..., title="Files")
    judgements: int = Field(..., title="Judgements")
    links: int = Field(..., title="Links")
    queue_items: int = Field(..., title="Queue Items")
    records: int = Field(..., title="Records")
    retained_inputs: int = Field(..., title="Retained Inputs")
    revisions: int = Field(..., title="Revisions")
    sessions: int = Field(..., title="Sessions")
    turns: int = Field(..., title="Turns")
    vectors: int = Field(..., title="Vectors")


class ErasureStarted(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    erasure_id: str = Field(
        ..., alias="erasureId", description="Poll GET /erasures/{erasure_id}.", title="Erasureid"
    )
    status: str = Field(..., description="`queued`.", title="Status")


class ErrorDetail(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    code: str = Field(..., description="Stable, machine-readable code.")
    field: str | None = Field(None, description="The field at fault, when one is.")
    message: str = Field(..., description="Never quotes the values sent.")


class ErrorResponse(BaseModel):
    model_config = ConfigDict(
        populate_by_name=True,
    )
    error: ErrorDetail


class ExtractionCounts(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    dropped_bytes: int = Field(
        ..., description="UTF-8 bytes past the extraction window limit.", title="Dropped Bytes"
    )
    dropped_chars: int = Field(
        ..., description="Characters past the extraction window limit.", title="Dropped Chars"
    )
    windows_failed: int = Field(..., title="Windows Failed")
    windows_run: int = Field(..., title="Windows Run")


class ExtractionResult(BaseModel):
    """
    The turn's merged extraction: what was written, by kind.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    actions: list[DiffAction] | None = Field(None, title="Actions")
    attributes: list[DiffAttribute] | None = Field(None, title="Attributes")
    chunk_only: bool = Field(
        ...,
        alias="chunkOnly",
        description="No extraction could be used: stored as chunks only.",
        title="Chunkonly",
    )
    corrections: list[DiffCorrection] | None = Field(None, title="Corrections")
    entities: list[DiffEntity] | None = Field(None, title="Entities")
    instructions: list[DiffInstruction] | None = Field(None, title="Instructions")
    relations: list[DiffRelation] | None = Field(None, title="Relations")
    turn_id: str = Field(..., alias="turnId", title="Turnid")
    uncertainties: list[DiffUncertainty] | None = Field(None, title="Uncertainties")


class ExtractionUsage(BaseModel):
    """
    Extraction in all and per source kind (`turn`, `document`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    by_source: dict[str, ExtractionCounts] = Field(..., title="By Source")
    dropped_bytes: int = Field(
        ..., description="UTF-8 bytes past the extraction window limit.", title="Dropped Bytes"
    )
    dropped_chars: int = Field(
        ..., description="Characters past the extraction window limit.", title="Dropped Chars"
    )
    windows_failed: int = Field(..., title="Windows Failed")
    windows_run: int = Field(..., title="Windows Run")


class Scope3(RootModel[list[str]]):
    root: list[str] = Field(..., max_length=16, title="Scope")


class Speaker(RootModel[str]):
    root: str = Field(
        ...,
        description="The end user who speaks the turn (an id); omitted: the `user/<id>` pair of the scope path, else the key's principal. First person resolves to this speaker's own entity.",
        max_length=128,
        title="Speaker",
    )


class FactsBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    infer: Literal["full", "none"] | None = Field("full", title="Infer")
    scope: Scope3 | None = Field(None, title="Scope")
    session_id: UUID | None = Field(None, alias="sessionId", title="Sessionid")
    speaker: Speaker | None = Field(
        None,
        description="The end user who speaks the turn (an id); omitted: the `user/<id>` pair of the scope path, else the key's principal. First person resolves to this speaker's own entity.",
        title="Speaker",
    )
    supersedes: list[UUID] | None = Field(None, max_length=50, title="Supersedes")
    text: str = Field(..., max_length=128000, title="Text")
    visibility: Literal["shared", "private"] | None = Field("shared", title="Visibility")


class HistoryRevision(BaseModel):
    """
    One revision of a record, content-free (`review.timeline.record_history`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    author: str = Field(
        ..., description="The principal whose request made this revision.", title="Author"
    )
    cause: Literal[
        "write",
        "correction",
        "declared_supersede",
        "hygiene_resolution",
        "consolidation",
        "review_decision",
        "restore",
        "delete",
        "erasure",
        "unknown",
    ] = Field(
        ...,
        description="Why: `write`, `correction` (a write's new value of a key, a stated correction, a command's edit), `declared_supersede`, `hygiene_resolution`, `consolidation`, `review_decision`, `restore`, `delete`, `erasure`; `unknown` for a supersede from before causes were stored.",
        title="Cause",
    )
    op: str = Field(
        ...,
        description="What changed: `create`, `update`, `delete`, `review`, `supersede`, `release`, `restore`, `erase`.",
        title="Op",
    )
    recorded_at: str = Field(..., title="Recorded At")
    replaced_by: str | None = Field(
        ..., description="The record that took this one's place.", title="Replaced By"
    )
    revision: int = Field(..., title="Revision")
    tombstone: bool = Field(
        ..., description="Its content is erased (ids, kinds and times stay).", title="Tombstone"
    )
    until: str | None = Field(
        ..., description="When the next revision replaced it; null: current.", title="Until"
    )
    valid_from: str | None = Field(
        ..., description="The record's validity as this revision left it.", title="Valid From"
    )
    valid_to: str | None = Field(..., title="Valid To")


class HitScope(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    path: str | None = Field(
        ..., description="The scope path; null for the Context's root.", title="Path"
    )
    visibility: str = Field(..., description="`shared` or `private`.", title="Visibility")


class HitSource(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    kind: str | None = Field(
        ..., description="What wrote it: facts, chat, document, a pass...", title="Kind"
    )
    ref: str | None = Field(
        ..., description="The turn or document id, when there is one.", title="Ref"
    )


class HoldChanges(BaseModel):
    """
    How much an approval released, or a rejection removed.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    chunks: int = Field(..., title="Chunks")
    facts: int = Field(..., description="Records (facts, notes, entities...).", title="Facts")
    turns: int = Field(..., title="Turns")


class HygieneConfig(BaseModel):
    """
    Memory hygiene (docs/hygiene.md). The band is cosine similarity of the embedder's
    vectors; the old names `review_band_low`/`review_band_high` are still read.
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    auto_resolve_min_confidence: float = Field(
        ..., ge=0.0, le=1.0, title="Auto Resolve Min Confidence"
    )
    band_high: float = Field(..., ge=0.0, le=1.0, title="Band High")
    band_low: float = Field(..., ge=0.0, le=1.0, title="Band Low")
    enabled: bool = Field(..., title="Enabled")
    link_confidence: float = Field(..., ge=0.0, le=1.0, title="Link Confidence")
    max_queue_rows_per_run: int = Field(..., ge=1, le=10000, title="Max Queue Rows Per Run")
    max_subjects_per_run: int = Field(..., ge=1, le=100000, title="Max Subjects Per Run")
    neighbours: int = Field(..., ge=1, le=50, title="Neighbours")
    nightly: bool = Field(..., title="Nightly")
    reexamine_min_recalls: int = Field(..., ge=1, title="Reexamine Min Recalls")
    reexamine_window_days: int = Field(..., ge=1, le=3650, title="Reexamine Window Days")


class HygieneCounts(BaseModel):
    """
    What a run did, per step (`scan.COUNT_KEYS`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    auto_resolved: int = Field(..., title="Auto Resolved")
    dismissed: int = Field(..., title="Dismissed")
    linked: int = Field(..., title="Linked")
    pairs_judged: int = Field(..., title="Pairs Judged")
    queued: int = Field(..., title="Queued")
    reexamined: int = Field(..., title="Reexamined")
    skipped_cross_project: int = Field(..., title="Skipped Cross Project")
    stopped_on_queue_cap: bool = Field(
        ..., description="The run stopped on the review-queue cap.", title="Stopped On Queue Cap"
    )
    subjects: int = Field(..., title="Subjects")
    unrelated: int = Field(..., title="Unrelated")


class HygieneRun(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    counts: HygieneCounts
    created_at: str = Field(..., title="Created At")
    error: str | None = Field(..., title="Error")
    finished_at: str | None = Field(..., title="Finished At")
    kind: str = Field(..., title="Kind")
    rejudge: bool | None = Field(..., title="Rejudge")
    requested_by: str | None = Field(..., title="Requested By")
    run_id: str = Field(..., alias="runId", title="Runid")
    started_at: str | None = Field(..., title="Started At")
    status: str = Field(..., title="Status")


class ImportJob(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    counts: dict[str, int] = Field(
        ...,
        description="Items per outcome: imported, held, duplicate, skipped, refused",
        title="Counts",
    )
    created_at: str = Field(..., alias="createdAt", title="Createdat")
    error: str | None = Field(..., title="Error")
    finished_at: str | None = Field(..., alias="finishedAt", title="Finishedat")
    format: str = Field(..., title="Format")
    import_id: str = Field(..., alias="importId", title="Importid")
    processed: int = Field(..., description="Items done so far (progress).", title="Processed")
    requested_by: str = Field(..., alias="requestedBy", title="Requestedby")
    source_dir: str = Field(
        ...,
        alias="sourceDir",
        description="The directory the items are pinned to.",
        title="Sourcedir",
    )
    started_at: str | None = Field(..., alias="startedAt", title="Startedat")
    status: str = Field(..., description="queued, running, done or failed.", title="Status")
    total: int = Field(..., title="Total")


class ImportStarted(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    format: str = Field(..., description="memwarden, mem0 or texts (as read).", title="Format")
    import_id: str = Field(
        ..., alias="importId", description="Poll GET /imports/{import_id}.", title="Importid"
    )
    status: str = Field(..., description="`queued`.", title="Status")
    total: int = Field(..., description="Items the file holds.", title="Total")


class InactiveSetting(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    reason: str = Field(..., title="Reason")
    setting: str = Field(..., description="The `MEMWARDEN_*` variable.", title="Setting")


class InstructionContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    description: str = Field(..., title="Description")
    label: str = Field(..., title="Label")


class IssuedKey(BaseModel):
    """
    A new key: its metadata and, this once, its secret.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    context_id: str = Field(..., title="Context Id")
    created_at: str | None = Field(..., title="Created At")
    expires_at: str | None = Field(..., title="Expires At")
    grants: list[str] = Field(..., title="Grants")
    id: str = Field(..., title="Id")
    key: str = Field(
        ..., description="The bearer secret (`mwk_...`); shown only in this answer.", title="Key"
    )
    last_used_at: str | None = Field(..., title="Last Used At")
    revoked_at: str | None = Field(..., title="Revoked At")
    scope: str | None = Field(
        ..., description="The scope prefix it is bound to, if any.", title="Scope"
    )
    subject: str = Field(..., title="Subject")


class ItemError(BaseModel):
    """
    An error as the error body carries it (`api/errors.py`), for one item of a batch.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    code: str = Field(..., title="Code")
    field: str | None = Field(
        None, description="Present when one field is at fault.", title="Field"
    )
    message: str = Field(..., title="Message")


class JudgeConfig(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    enabled: bool = Field(..., title="Enabled")
    input: bool = Field(..., title="Input")
    on_error: Literal["fail", "allow"] = Field(..., title="On Error")
    on_warn: Literal["write", "hold"] = Field(..., title="On Warn")
    record_pass: bool = Field(..., title="Record Pass")
    retain_inputs: bool = Field(..., title="Retain Inputs")
    retention_days: int = Field(..., ge=0, le=3650, title="Retention Days")
    rows: bool = Field(..., title="Rows")


class JudgementOverride(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    at: str | None = Field(None, title="At")
    by: str | None = Field(None, title="By")
    verdict: str = Field(..., title="Verdict")


class JudgementScope(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    path: str = Field(..., title="Path")
    visibility: str = Field(..., title="Visibility")


class KeyInfo(BaseModel):
    """
    A key's metadata; never its secret.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    created_at: str | None = Field(..., title="Created At")
    expires_at: str | None = Field(..., title="Expires At")
    grants: list[str] = Field(..., title="Grants")
    id: str = Field(..., title="Id")
    last_used_at: str | None = Field(..., title="Last Used At")
    revoked_at: str | None = Field(..., title="Revoked At")
    scope: str | None = Field(
        ..., description="The scope prefix it is bound to, if any.", title="Scope"
    )
    subject: str = Field(..., title="Subject")


class KeyList(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    keys: list[KeyInfo] = Field(..., title="Keys")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class ExpectedRevision(RootModel[int]):
    root: int = Field(..., ge=1, le=2000000000, title="Expected Revision")


class MemoryCommand(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    content: str | None = Field(None, title="Content")
    contract_version: Literal[1] = Field(..., title="Contract Version")
    expected_revision: ExpectedRevision | None = Field(None, title="Expected Revision")
    expires_at: AwareDatetime | None = Field(None, title="Expires At")
    op: Literal["create", "update", "delete"] = Field(..., title="Op")
    record_id: UUID | None = Field(None, title="Record Id")


class MemoryRestored(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    record_id: str = Field(..., title="Record Id")
    revision: int | None = Field(..., title="Revision")
    serving: str = Field(..., title="Serving")


class ModelChoice(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    model: str = Field(..., max_length=200, min_length=1, title="Model")
    provider: str = Field(
        ..., max_length=64, min_length=1, pattern="^[a-z0-9_\\-]+$", title="Provider"
    )


class ModelsConfig(BaseModel):
    """
    Models for background stages; None means the deployment default.
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    adjudication: ModelChoice | None
    chat: ModelChoice | None
    consolidation: ModelChoice | None
    elaboration: ModelChoice | None
    extraction: ModelChoice | None
    gist: ModelChoice | None
    hygiene: ModelChoice | None
    judge: ModelChoice | None
    rollup: ModelChoice | None


class NoteContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    text: str = Field(..., description="A memory command's note.", title="Text")


class OverrideBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    replay: bool | None = Field(False, title="Replay")
    verdict: Literal["pass", "warn", "fail"] = Field(..., title="Verdict")


class PassCounts(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    dropped: int = Field(..., description="Rows the row gate dropped.", title="Dropped")
    held: int = Field(..., title="Held")
    inputs: int = Field(..., description="Units the pass read.", title="Inputs")
    written: int = Field(..., title="Written")


class PassRun(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    counts: PassCounts
    created_at: str = Field(..., alias="createdAt", title="Createdat")
    error_code: str | None = Field(..., alias="errorCode", title="Errorcode")
    finished_at: str | None = Field(..., alias="finishedAt", title="Finishedat")
    run_id: str = Field(..., alias="runId", title="Runid")
    stage: str = Field(..., title="Stage")
    started_at: str | None = Field(..., alias="startedAt", title="Startedat")
    status: str = Field(..., title="Status")
    trigger: str = Field(..., title="Trigger")


class PassStage(BaseModel):
    """
    One background pass: on or off, and which triggers start it on its own.
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    after_writes: bool = Field(..., title="After Writes")
    enabled: bool = Field(..., title="Enabled")
    scheduled: bool = Field(..., title="Scheduled")


class PassStarted(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    run_id: str = Field(
        ..., alias="runId", description="Poll GET /passes/runs/{run_id}.", title="Runid"
    )


class PassesConfig(BaseModel):
    """
    The background passes (docs/passes.md); elaboration is off unless switched on.
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    consolidation: PassStage
    elaboration: PassStage
    gist: PassStage
    rollup: PassStage
    rollup_idle_minutes: int = Field(..., ge=0, le=10080, title="Rollup Idle Minutes")
    settle_minutes: int = Field(..., ge=1, le=1440, title="Settle Minutes")


class Description(RootModel[str]):
    root: str = Field(..., max_length=500, title="Description")


class Events(RootModel[list[str]]):
    root: list[str] = Field(
        ...,
        description="Event kinds, among created, updated, superseded, deleted, reviewed, held, released, judge_fail, hygiene_queued (docs/webhooks.md).",
        max_length=18,
        min_length=1,
        title="Events",
    )


class Url(RootModel[str]):
    root: str = Field(..., max_length=2048, min_length=1, title="Url")


class PatchWebhook(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    active: bool | None = Field(
        None, description="true resumes a paused subscription; false pauses it.", title="Active"
    )
    description: Description | None = Field(None, title="Description")
    events: Events | None = Field(
        None,
        description="Event kinds, among created, updated, superseded, deleted, reviewed, held, released, judge_fail, hygiene_queued (docs/webhooks.md).",
        title="Events",
    )
    include_content: bool | None = Field(None, title="Include Content")
    url: Url | None = Field(None, title="Url")


class ProfileEntity(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    entity_type: str | None = Field(None, alias="entityType", title="Entitytype")
    id: str = Field(..., title="Id")
    memory_category: str | None = Field(None, alias="memoryCategory", title="Memorycategory")
    name: str | None = Field(None, title="Name")
    scope: HitScope


class PromptAddendums(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    adjudication: str | None = Field(..., title="Adjudication")
    chat: str | None = Field(..., title="Chat")
    consolidation: str | None = Field(..., title="Consolidation")
    elaboration: str | None = Field(..., title="Elaboration")
    extraction: str | None = Field(..., title="Extraction")
    gist: str | None = Field(..., title="Gist")
    hygiene: str | None = Field(..., title="Hygiene")
    judge: str | None = Field(..., title="Judge")
    rollup: str | None = Field(..., title="Rollup")


class AsOf(RootModel[AwareDatetime]):
    root: AwareDatetime = Field(
        ...,
        description="An ISO-8601 timestamp with a timezone: answer as this key would have been served at that moment (records, revisions, holds, review decisions and deletes as they stood then; erased content never). Not later than now; omitted: now.",
        title="As Of",
    )


class QueryBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    as_of: AsOf | None = Field(
        None,
        description="An ISO-8601 timestamp with a timezone: answer as this key would have been served at that moment (records, revisions, holds, review decisions and deletes as they stood then; erased content never). Not later than now; omitted: now.",
        title="As Of",
    )
    categories: list[Literal["identity", "knowledge", "context"]] | None = Field(
        None, title="Categories"
    )
    include_superseded: bool | None = Field(
        False, alias="includeSuperseded", title="Includesuperseded"
    )
    kinds: (
        list[
            Literal[
                "entity",
                "attribute",
                "relation",
                "action",
                "instruction",
                "uncertainty",
                "note",
                "chunk",
            ]
        ]
        | None
    ) = Field(None, title="Kinds")
    limit: int | None = Field(10, ge=1, le=100, title="Limit")
    mode: Literal["hybrid", "lexical", "vector"] | None = Field("hybrid", title="Mode")
    query: str = Field(..., max_length=4000, min_length=1, title="Query")
    scope: Scope3 | None = Field(None, title="Scope")


class QueueProvenance(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    import_source_dir: str | None = Field(
        ..., description="Only on an imported record.", title="Import Source Dir"
    )
    rank: int = Field(
        ..., description="The provenance rank (`domain/provenance.py`).", title="Rank"
    )
    rank_name: str = Field(..., title="Rank Name")
    source_kind: str | None = Field(..., title="Source Kind")


class QueueScope(BaseModel):
    """
    Where the record lives; null fields when the record is gone.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    owner: str | None = Field(..., title="Owner")
    path: str | None = Field(..., title="Path")
    visibility: str | None = Field(..., title="Visibility")


class Receipt(BaseModel):
    """
    One review decision, as stored (`render.receipt`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    credential_id: str | None = Field(..., title="Credential Id")
    decided_at: str | None = Field(..., title="Decided At")
    disposition: str = Field(..., title="Disposition")
    evidence_ref: str | None = Field(
        ..., description="The reviewer's reference, as sent.", title="Evidence Ref"
    )
    idempotency_key: str | None = Field(..., title="Idempotency Key")
    receipt_id: str = Field(..., title="Receipt Id")
    record_id: str = Field(..., title="Record Id")
    reviewer: str | None = Field(..., title="Reviewer")
    revision: int = Field(..., title="Revision")


class ReceiptAnswer(BaseModel):
    """
    POST /memory/reviews (a replayed decision answers its first receipt) and
    /memory/reviews/read.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    receipt: Receipt


class RecordHistory(BaseModel):
    """
    GET /{context_id}/memories/{record_id}/history: newest revision first.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    author: str = Field(..., description="The principal that wrote the record.", title="Author")
    created_at: str = Field(..., title="Created At")
    kind: str = Field(..., title="Kind")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for older revisions.", title="Next Cursor"
    )
    record_id: str = Field(..., title="Record Id")
    revisions: list[HistoryRevision] = Field(..., title="Revisions")
    serving: str = Field(
        ..., description="Now: live, held, superseded, deleted or erased.", title="Serving"
    )
    source_kind: str = Field(..., title="Source Kind")
    speaker: str | None = Field(
        ..., description="Who said the turn it came from (`user:<id>` ...).", title="Speaker"
    )


class RecordScope(BaseModel):
    """
    A record's scope: the ids its path names (all null when the path follows no
    project/mission/agent form) and the path itself.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    agent_id: str | None = Field(..., title="Agent Id")
    mission_id: str | None = Field(..., title="Mission Id")
    path: str = Field(..., title="Path")
    project_id: str | None = Field(..., title="Project Id")
    visibility: str = Field(..., title="Visibility")


class ReflectBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    limit: int | None = Field(50, ge=1, le=200, title="Limit")
    scope: Scope3 | None = Field(None, title="Scope")


class ReflectExtraction(BaseModel):
    """
    What the reflection wrote, by kind (the same entries as a write's extraction).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    actions: list[DiffAction] = Field(..., title="Actions")
    attributes: list[DiffAttribute] = Field(..., title="Attributes")
    corrections: list[DiffCorrection] = Field(..., title="Corrections")
    entities: list[DiffEntity] = Field(..., title="Entities")
    instructions: list[DiffInstruction] = Field(..., title="Instructions")
    reflection_id: str | None = Field(
        ...,
        alias="reflectionId",
        description="Null when there was nothing to reflect on.",
        title="Reflectionid",
    )
    relations: list[DiffRelation] = Field(..., title="Relations")
    uncertainties: list[DiffUncertainty] = Field(..., title="Uncertainties")


class ReflectResponse(BaseModel):
    """
    POST /reflect (`reflect.reflect` builds it).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    extraction: ReflectExtraction
    parsed: bool = Field(
        ..., description="False when the model's reply could not be used.", title="Parsed"
    )
    reflection_id: str | None = Field(
        ...,
        alias="reflectionId",
        description="Null when there was nothing to reflect on.",
        title="Reflectionid",
    )
    sources: int = Field(..., description="How many memories the model was shown.", title="Sources")


class RelationContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    label: str = Field(..., title="Label")
    object: str = Field(..., title="Object")
    subject: str = Field(..., title="Subject")


class ReprocessExtraction(BaseModel):
    """
    The new extraction: `turnId` for a turn, `documentId` for a document.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    chunk_only: bool = Field(..., alias="chunkOnly", title="Chunkonly")
    document_id: str | None = Field(None, alias="documentId", title="Documentid")
    turn_id: str | None = Field(None, alias="turnId", title="Turnid")


class ReprocessResponse(BaseModel):
    """
    POST /turns/{id}/reprocess (`turnId`) and /documents/{id}/reprocess (`documentId`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    document_id: str | None = Field(None, alias="documentId", title="Documentid")
    extraction: ReprocessExtraction
    turn_id: str | None = Field(None, alias="turnId", title="Turnid")
    windows_failed: int = Field(..., alias="windowsFailed", title="Windowsfailed")
    windows_retried: int = Field(..., alias="windowsRetried", title="Windowsretried")


class ResolveBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    resolution: Literal["keep_both", "keep_a", "keep_b"] = Field(..., title="Resolution")


class ReviewCommand(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    contract_version: Literal[1] = Field(..., title="Contract Version")
    disposition: Literal["approved", "rejected", "unreviewed"] = Field(..., title="Disposition")
    evidence_ref: str = Field(..., title="Evidence Ref")
    expected_revision: int = Field(..., ge=1, le=2000000000, title="Expected Revision")
    idempotency_key: str | None = Field(None, title="Idempotency Key")
    record_id: UUID = Field(..., title="Record Id")


class ReviewObject(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    decided_at: str | None = Field(..., title="Decided At")
    disposition: str = Field(..., title="Disposition")
    receipt_id: str = Field(..., title="Receipt Id")
    reviewer: str | None = Field(..., title="Reviewer")
    revision: int | None = Field(..., title="Revision")


class RevokedKey(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    id: str = Field(..., title="Id")
    revoked_at: str = Field(..., title="Revoked At")


class RotatedSecret(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    id: str = Field(..., title="Id")
    secret: str = Field(
        ..., description="The new signing secret; the old one stops at once.", title="Secret"
    )


class ScanBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    rejudge: bool | None = Field(False, title="Rejudge")


class ScanStarted(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    run_id: str = Field(..., alias="runId", title="Runid")
    status: str = Field(
        ..., description="`queued`: poll GET /hygiene/runs/{run_id}.", title="Status"
    )


class ScopeIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    agent_id: str | None = Field(None, title="Agent Id")
    mission_id: str | None = Field(None, title="Mission Id")
    project_id: str | None = Field(None, title="Project Id")
    visibility: Literal["shared", "private"] = Field(..., title="Visibility")


class Categories(RootModel[list[Literal["identity", "knowledge", "context"]]]):
    root: list[Literal["identity", "knowledge", "context"]] = Field(
        ..., max_length=3, title="Categories"
    )


class Kinds(
    RootModel[
        list[
            Literal[
                "entity", "attribute", "relation", "action", "instruction", "uncertainty", "note"
            ]
        ]
    ]
):
    root: list[
        Literal["entity", "attribute", "relation", "action", "instruction", "uncertainty", "note"]
    ] = Field(..., max_length=7, title="Kinds")


class SearchFilterIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    categories: Categories | None = Field(None, title="Categories")
    kinds: Kinds | None = Field(None, title="Kinds")


class Query(RootModel[str]):
    root: str = Field(..., max_length=2000, title="Query")


class Vector(RootModel[list[VectorItem]]):
    root: list[VectorItem] = Field(..., max_length=384, min_length=384, title="Vector")


class SearchRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    contract_version: Literal[1] = Field(..., title="Contract Version")
    filter: SearchFilterIn | None = None
    limit: int | None = Field(10, ge=1, le=100, title="Limit")
    query: Query | None = Field(None, title="Query")
    scope: ScopeIn
    vector: Vector | None = Field(None, title="Vector")


class StageHealthReport(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    configured: bool = Field(..., title="Configured")
    detail: str = Field(..., title="Detail")
    ok: bool | None = Field(..., description="Null when the stage was not checked.", title="Ok")
    provider: str = Field(..., title="Provider")
    stage: str = Field(..., title="Stage")


class StreamedMemory(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    id: str = Field(..., title="Id")
    kind: str = Field(..., title="Kind")
    score: float = Field(..., title="Score")


class SupersedeCandidates(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    candidates: list[CandidateRecord] = Field(..., title="Candidates")
    record_id: str = Field(
        ..., alias="recordId", description="A record this write stored.", title="Recordid"
    )


class Limit(RootModel[int]):
    root: int = Field(..., ge=0, title="Limit")


class TokenBudget(BaseModel):
    """
    Tokens a Context may spend on model calls per period; None is unlimited.
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    limit: Limit | None = Field(..., title="Limit")
    period: Literal["day", "month"] = Field(..., title="Period")


class UncertaintyContent(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    about: str = Field(..., title="About")
    judge_reasons: list[str] | None = Field(
        None,
        alias="judgeReasons",
        description="Only on the judge's warning note: its reason codes.",
        title="Judgereasons",
    )
    reason: str = Field(..., title="Reason")


class UsageCounts(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    calls: int = Field(..., title="Calls")
    completion_tokens: int = Field(..., title="Completion Tokens")
    prompt_tokens: int = Field(..., title="Prompt Tokens")


class VerdictPair(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    error: str | None = Field(
        None, description="`judge_unavailable` when it failed.", title="Error"
    )
    reasons: list[str] = Field(..., title="Reasons")
    verdict: str | None = Field(
        ..., description="Null when the judge could not answer.", title="Verdict"
    )


class Webhook(BaseModel):
    """
    A subscription; its secret is shown only when created or rotated.
    """

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    consecutive_failures: int = Field(..., title="Consecutive Failures")
    created_at: AwareDatetime = Field(..., title="Created At")
    created_by: str = Field(
        ..., description="The subject of the key that created it.", title="Created By"
    )
    description: str = Field(..., title="Description")
    events: list[str] = Field(..., title="Events")
    id: str = Field(..., title="Id")
    include_content: bool = Field(..., title="Include Content")
    key_id: str | None = Field(
        ..., description="The key whose read grants decide content.", title="Key Id"
    )
    paused_reason: Literal["gone", "failures", "manual"] | None = Field(
        ...,
        description="gone: the receiver answered 410; failures: too many failed attempts in a row; manual: paused by PATCH.",
        title="Paused Reason",
    )
    status: Literal["active", "paused"] = Field(..., title="Status")
    updated_at: AwareDatetime = Field(..., title="Updated At")
    url: str = Field(..., title="Url")


class WebhookList(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    next_cursor: str | None = Field(..., title="Next Cursor")
    webhooks: list[Webhook] = Field(..., title="Webhooks")


class WhoAmI(BaseModel):
    """
    The key's Context, principal and effective grants; never its secret.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    context_id: str = Field(..., title="Context Id")
    context_name: str = Field(..., title="Context Name")
    created_at: str = Field(..., title="Created At")
    expires_at: str | None = Field(..., title="Expires At")
    grants: dict[str, list[str]] = Field(
        ...,
        description='Each capability the key holds in effect, with the scope prefixes it covers (`""` is the whole Context). A capability that is absent is not held.',
        title="Grants",
    )
    key_grants: list[str] = Field(
        ..., description="The capabilities the key was issued with.", title="Key Grants"
    )
    key_id: str = Field(..., title="Key Id")
    key_scope: str | None = Field(
        ..., description="The scope prefix the key is bound to, if any.", title="Key Scope"
    )
    principal_id: str = Field(..., title="Principal Id")
    subject: str = Field(..., description="The principal the key acts for.", title="Subject")


class WorkerHealth(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    active_workers: int | None = Field(None, description="Operator.", title="Active Workers")
    in_process: bool | None = Field(None, description="Operator.", title="In Process")
    status: Literal["ok", "none"] = Field(
        ..., description="`none`: no worker beat in 60 s.", title="Status"
    )


class BatchBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    items: list[FactsBody] = Field(
        ...,
        description="At most 256,000 characters of text in all items together.",
        max_length=50,
        min_length=1,
        title="Items",
    )


class BatchItemError(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    error: ItemError


class ChatResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    answer: str = Field(..., title="Answer")
    cached: bool = Field(..., description="The answer came from the answer cache.", title="Cached")
    chunk_only: bool = Field(..., alias="chunkOnly", title="Chunkonly")
    memories: list[CitedMemory] = Field(
        ..., description="The memories the answer was given.", title="Memories"
    )
    model: str = Field(..., description="`provider:model` that answered.", title="Model")
    session_id: str | None = Field(
        ...,
        alias="sessionId",
        description="The session the turn was remembered in.",
        title="Sessionid",
    )
    turn_id: str | None = Field(
        ...,
        alias="turnId",
        description="The remembered turn; null when not remembered.",
        title="Turnid",
    )


class ChatStreamDone(BaseModel):
    """
    The last event of an answer that completed.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    cached: bool = Field(..., description="The answer came from the answer cache.", title="Cached")
    chunk_only: bool = Field(..., alias="chunkOnly", title="Chunkonly")
    model: str = Field(..., description="`provider:model` that answered, or `none`.", title="Model")
    session_id: str | None = Field(
        ...,
        alias="sessionId",
        description="The session the turn was remembered in.",
        title="Sessionid",
    )
    turn_id: str | None = Field(
        ...,
        alias="turnId",
        description="The remembered turn; null when not remembered.",
        title="Turnid",
    )
    usage: ChatStreamUsage = Field(..., description="Zero for a cached or offline answer.")


class ChatStreamError(BaseModel):
    """
    The last event of an answer that failed after the stream started.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    error: ChatStreamErrorDetail


class ChatStreamMemories(BaseModel):
    """
    The first event: the memories the answer is given.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    memories: list[StreamedMemory] = Field(..., title="Memories")


class CommandRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    command: MemoryCommand
    scope: ScopeIn


class ContextConfig(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    hygiene: HygieneConfig
    judge: JudgeConfig
    models: ModelsConfig
    passes: PassesConfig
    pii_redaction_enabled: bool = Field(..., title="Pii Redaction Enabled")
    prompt_addendums: PromptAddendums
    token_budget: TokenBudget


class ContractRecord(BaseModel):
    """
    A servable record as the memory contract shows it (`render.record`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    author: str | None = Field(..., title="Author")
    body: str | None = Field(..., title="Body")
    content: (
        EntityContent
        | AttributeContent
        | RelationContent
        | ActionContent
        | InstructionContent
        | UncertaintyContent
        | NoteContent
    ) = Field(..., description="The stored JSON as it is, by kind.", title="Content")
    created_at: str | None = Field(..., title="Created At")
    derived_by: str | None = Field(
        None, description="Only on a derived record: the pass.", title="Derived By"
    )
    derived_from: list[str] | None = Field(
        None, description="Only on a derived record.", title="Derived From"
    )
    expires_at: str | None = Field(..., title="Expires At")
    id: str = Field(..., title="Id")
    kind: str = Field(..., title="Kind")
    memory_category: str | None = Field(..., title="Memory Category")
    modified_at: str | None = Field(..., title="Modified At")
    modified_at_millis: int = Field(..., title="Modified At Millis")
    review: ReviewObject | None
    revision: int = Field(..., title="Revision")
    scope: RecordScope = Field(..., description="The ids the path names, `visibility`, `path`.")


class CreatedContext(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    created_at: str = Field(..., title="Created At")
    id: str = Field(..., title="Id")
    name: str = Field(..., title="Name")
    owner_key: IssuedKey | None = Field(
        None, description="Only with `owner_subject`: the first key, with every grant."
    )


class DocumentList(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    documents: list[DocumentResponse] = Field(..., title="Documents")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class DryRunEntry(BaseModel):
    """
    One tested (or skipped) judgement.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    candidate: VerdictPair | None = Field(None, description="Under the addendum.")
    changed: bool | None = Field(None, description="The candidate differs.", title="Changed")
    current: VerdictPair | None = Field(None, description="With compareCurrent.")
    gate: str | None = Field(None, description="Absent for an id that was not found.", title="Gate")
    id: str = Field(..., title="Id")
    original: VerdictPair | None = None
    override: str | None = Field(
        None, description="A reviewer's verdict, if any.", title="Override"
    )
    skipped: Literal["not_found", "row_gate"] | None = Field(
        None, description="Why it was not tested.", title="Skipped"
    )
    source: str | None = Field(None, title="Source")


class DryRunResult(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    changed: int = Field(..., title="Changed")
    entries: list[DryRunEntry] = Field(
        ..., description="Per judgement: original and candidate.", title="Entries"
    )
    matrix: dict[str, dict[str, int]] = Field(
        ..., description="Original verdict to candidate's.", title="Matrix"
    )
    model: str | None = Field(..., title="Model")
    note: str | None = Field(None, description="When no judge model answered.", title="Note")
    skipped: int = Field(..., title="Skipped")
    tested: int = Field(..., title="Tested")


class EmbeddingRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    contract_version: Literal[1] = Field(..., title="Contract Version")
    model: str | None = Field("external", max_length=200, min_length=1, title="Model")
    record_id: UUID = Field(..., title="Record Id")
    revision: int = Field(..., ge=1, le=2000000000, title="Revision")
    scope: ScopeIn
    vector: list[VectorItem] = Field(..., max_length=384, min_length=384, title="Vector")


class Erasure(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    counts: ErasureCounts = Field(..., description="What was erased, per kind.")
    created_at: str = Field(..., alias="createdAt", title="Createdat")
    erasure_id: str = Field(..., alias="erasureId", title="Erasureid")
    error: str | None = Field(..., title="Error")
    finished_at: str | None = Field(..., alias="finishedAt", title="Finishedat")
    requested_by: str = Field(..., alias="requestedBy", title="Requestedby")
    started_at: str | None = Field(..., alias="startedAt", title="Startedat")
    status: str = Field(..., description="queued, running, done or failed.", title="Status")
    target_kind: str = Field(
        ...,
        alias="targetKind",
        description="records, subject, speaker, scope, session, document.",
        title="Targetkind",
    )


class FactsResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    extraction: ExtractionResult
    held: bool = Field(
        ..., description="The write waits for a judge's approval (a hold).", title="Held"
    )
    session_id: str = Field(..., alias="sessionId", title="Sessionid")
    supersede_candidates: list[SupersedeCandidates] | None = Field(
        None,
        alias="supersedeCandidates",
        description="Records that may be superseded by this write (not after a hold).",
        title="Supersedecandidates",
    )
    supersedes: list[DeclaredSupersede] | None = Field(
        None,
        description="What each declared supersede did, in order (only when the write declared some): a held write replaces nothing (`reason: held`).",
        title="Supersedes",
    )
    turn_id: str = Field(..., alias="turnId", title="Turnid")


class Judgement(BaseModel):
    """
    One entry of the review log: the judge's verdict and a reviewer's, side by side.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    created_at: str | None = Field(..., title="Created At")
    document_id: str | None = Field(..., title="Document Id")
    effective_verdict: str = Field(
        ..., description="The override's verdict, else the judge's.", title="Effective Verdict"
    )
    excerpt: str | None = Field(..., title="Excerpt")
    gate: str = Field(..., description="`input` or `rows`.", title="Gate")
    held: bool | None = Field(..., title="Held")
    hold_decided_at: str | None = Field(..., title="Hold Decided At")
    hold_decision: str | None = Field(..., title="Hold Decision")
    id: str = Field(..., title="Id")
    key_id: str | None = Field(..., title="Key Id")
    override: JudgementOverride | None
    principal_id: str | None = Field(..., title="Principal Id")
    reasons: list[str] = Field(..., title="Reasons")
    replay: str | None = Field(..., title="Replay")
    retained: bool | None = Field(..., title="Retained")
    row_count: int | None = Field(..., title="Row Count")
    scope: JudgementScope = Field(..., description="The write's scope.")
    source: str | None = Field(..., title="Source")
    turn_id: str | None = Field(..., title="Turn Id")
    verdict: str = Field(..., title="Verdict")


class JudgementList(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    judgements: list[Judgement] = Field(..., title="Judgements")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class MemoryHit(BaseModel):
    """
    One memory record or chunk (`kind: chunk`), as recall returns it.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    content: (
        EntityContent
        | AttributeContent
        | RelationContent
        | ActionContent
        | InstructionContent
        | UncertaintyContent
        | NoteContent
        | None
    ) = Field(
        None,
        description="The record's structured content, by kind; null for a chunk.",
        title="Content",
    )
    derived_by: str | None = Field(
        None,
        alias="derivedBy",
        description="Only on a derived record: the pass.",
        title="Derivedby",
    )
    derived_from: list[str] | None = Field(
        None, alias="derivedFrom", description="Only on a derived record.", title="Derivedfrom"
    )
    direction: str | None = Field(
        None, description="/profile only: `out` or `in`.", title="Direction"
    )
    id: str = Field(..., title="Id")
    kind: str = Field(
        ...,
        description="entity, attribute, relation, action, instruction, ... or chunk",
        title="Kind",
    )
    memory_category: str | None = Field(None, alias="memoryCategory", title="Memorycategory")
    revision: int | None = Field(
        None, description="The record's revision; null for a chunk.", title="Revision"
    )
    scope: HitScope
    score: float | None = Field(
        None, description="Fused rank score; null outside /query.", title="Score"
    )
    source: HitSource
    superseded: bool | None = Field(
        None, description="Only on a superseded record: true.", title="Superseded"
    )
    superseded_by: str | None = Field(None, alias="supersededBy", title="Supersededby")
    text: str | None = Field(None, title="Text")
    valid_from: str | None = Field(None, alias="validFrom", title="Validfrom")
    valid_to: str | None = Field(
        None, alias="validTo", description="Only on a superseded record.", title="Validto"
    )


class ModelsHealth(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    error: str | None = Field(
        None, description="Operator, when the check itself failed.", title="Error"
    )
    stages: dict[str, StageHealthReport] | None = Field(
        None, description="Operator.", title="Stages"
    )
    status: Literal["ok", "error"] = Field(..., title="Status")


class ProfileResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    actions: list[MemoryHit] = Field(..., title="Actions")
    attributes: list[MemoryHit] = Field(..., title="Attributes")
    entity: ProfileEntity
    entity_ids: list[str] = Field(..., alias="entityIds", title="Entityids")
    history: list[MemoryHit] = Field(
        ..., description="Empty unless `history=true`.", title="History"
    )
    relations: list[MemoryHit] = Field(..., title="Relations")


class QueryResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    hits: list[MemoryHit] = Field(..., title="Hits")
    query: str = Field(..., title="Query")


class QueueMemory(BaseModel):
    """
    One side of a queue item: the record as it is now.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    id: str = Field(..., title="Id")
    judged_revision: int | None = Field(..., title="Judged Revision")
    kind: str | None = Field(..., title="Kind")
    provenance: QueueProvenance
    revision: int | None = Field(..., title="Revision")
    scope: QueueScope
    serving: str | None = Field(..., title="Serving")
    text: str | None = Field(..., title="Text")


class ReadAnswer(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    record: ContractRecord


class ReadRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    contract_version: Literal[1] = Field(..., title="Contract Version")
    record_id: UUID = Field(..., title="Record Id")
    scope: ScopeIn


class ReceiptReadRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    contract_version: Literal[1] = Field(..., title="Contract Version")
    record_id: UUID = Field(..., title="Record Id")
    revision: int = Field(..., ge=1, le=2000000000, title="Revision")
    scope: ScopeIn


class RecordState(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    deleted: bool = Field(..., title="Deleted")
    expired: bool = Field(..., title="Expired")
    record_id: str = Field(..., title="Record Id")
    review: ReviewObject | None = Field(..., description="The current decision, if any.")
    revision: int = Field(..., title="Revision")


class ReplayedWrite(BaseModel):
    """
    The replayed /facts write's answer, and where its turn went.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    extraction: ExtractionResult
    held: bool = Field(
        ..., description="The write waits for a judge's approval (a hold).", title="Held"
    )
    session_id: str = Field(..., alias="sessionId", title="Sessionid")
    session_replay: Literal["stored", "new", "not_found"] = Field(
        ...,
        alias="sessionReplay",
        description="`stored`: the session the request named; `new`: it named none; `not_found`: the one it named is gone or no longer the principal's.",
        title="Sessionreplay",
    )
    supersede_candidates: list[SupersedeCandidates] | None = Field(
        None,
        alias="supersedeCandidates",
        description="Records that may be superseded by this write (not after a hold).",
        title="Supersedecandidates",
    )
    supersedes: list[DeclaredSupersede] | None = Field(
        None,
        description="What each declared supersede did, in order (only when the write declared some): a held write replaces nothing (`reason: held`).",
        title="Supersedes",
    )
    turn_id: str = Field(..., alias="turnId", title="Turnid")


class ReviewRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
    )
    command: ReviewCommand
    scope: ScopeIn


class ReviewStateAnswer(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    scope: ContractScope = Field(..., description="The scope the request named, as sent.")
    state: RecordState


class SearchHit(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    lexical_rank: int | None = Field(..., title="Lexical Rank")
    record: ContractRecord
    score: float | None = Field(..., title="Score")
    vector_rank: int | None = Field(..., title="Vector Rank")


class StageUsage(BaseModel):
    """
    One stage's model calls and tokens, in all and per `provider:model`.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    calls: int = Field(..., title="Calls")
    completion_tokens: int = Field(..., title="Completion Tokens")
    models: dict[str, UsageCounts] = Field(..., title="Models")
    prompt_tokens: int = Field(..., title="Prompt Tokens")


class StateResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    actions: list[MemoryHit] = Field(..., title="Actions")
    instructions: list[MemoryHit] = Field(..., title="Instructions")
    uncertainties: list[MemoryHit] = Field(..., title="Uncertainties")


class UsageAnswer(BaseModel):
    """
    GET /{context_id}/usage (`usage.usage_breakdown`).
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    extraction: ExtractionUsage
    since: str = Field(..., description="The first day counted (ISO date, UTC).", title="Since")
    stages: dict[str, StageUsage] = Field(
        ..., description="By stage: `chat`, `extraction`, ...", title="Stages"
    )
    total_tokens: int = Field(
        ..., description="Prompt and completion tokens of every stage.", title="Total Tokens"
    )


class BatchResponse(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    extractions: list[FactsResponse | BatchItemError] = Field(
        ...,
        description="One answer per item, in order: its result or its error.",
        title="Extractions",
    )


class HealthReport(BaseModel):
    """
    200 when `status` is `ok`, 503 when it is `degraded` or `down`.
    """

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    database: DatabaseHealth
    inactive_settings: list[InactiveSetting] | None = Field(
        None,
        description="Operator: settings given a value that have no effect yet.",
        title="Inactive Settings",
    )
    models: ModelsHealth
    status: Literal["ok", "degraded", "down"] = Field(..., title="Status")
    version: str | None = Field(None, description="Operator: memwarden's version.", title="Version")
    worker: WorkerHealth


class HoldDecision(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    changed: HoldChanges
    judgement: Judgement


class OverrideResult(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    ingest: ReplayedWrite | None = Field(..., description="The replayed write's answer, if any.")
    judgement: Judgement
    replay: str | None = Field(
        ..., description="What became of the replay, when one was asked.", title="Replay"
    )


class QueueItem(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    a: QueueMemory
    action: str | None = Field(..., title="Action")
    b: QueueMemory | None = Field(..., description="Null on a challenge (one record).")
    confidence: float | None = Field(..., title="Confidence")
    created_at: str | None = Field(..., title="Created At")
    decided_at: str | None = Field(..., title="Decided At")
    decided_by: str | None = Field(..., title="Decided By")
    direction: str | None = Field(..., title="Direction")
    dismissed_because: str | None = Field(..., title="Dismissed Because")
    id: str = Field(..., title="Id")
    judge_model: str | None = Field(..., title="Judge Model")
    judging_path: str | None = Field(..., title="Judging Path")
    origin: str = Field(
        ..., description="How it came: a scan's pair, a `challenge`, a `pass`.", title="Origin"
    )
    reason: str | None = Field(..., title="Reason")
    resolution: str | None = Field(..., title="Resolution")
    restored_at: str | None = Field(..., title="Restored At")
    similarity: float | None = Field(..., title="Similarity")
    status: str = Field(..., title="Status")
    superseding: str | None = Field(..., title="Superseding")
    verdict: str | None = Field(..., title="Verdict")


class QueuePage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    items: list[QueueItem] = Field(..., title="Items")
    next_cursor: str | None = Field(
        ..., description="Pass as `cursor` for the next page.", title="Next Cursor"
    )


class QueueResolved(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    item: QueueItem


class SearchAnswer(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    contract_version: int = Field(..., title="Contract Version")
    hits: list[SearchHit] = Field(..., title="Hits")
    mode: str = Field(..., title="Mode")


class QueueChallenged(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
    )
    created: bool = Field(
        ..., description="False when the record was already challenged.", title="Created"
    )
    id: str = Field(..., description="The challenge's queue item.", title="Id")
    item: QueueItem | None = Field(
        ..., description="The item in full for a caller who may review the memory, else null."
    )
    status: str = Field(..., title="Status")
