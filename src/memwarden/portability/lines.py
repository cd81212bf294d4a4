"""The export's line format (version 1), written by `export.py` and read back by an import.

A file is JSON Lines: a `header` line first (format name and version, the Context, what it
covers), then one object per line, each with a `kind`: `record` (with its revisions and
review receipts), `link`, `session`, `turn`, `principal`, `judgement`, and an `end` line
with the counts, so a reader can tell a whole file from a cut one (docs/portability.md).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from memwarden.domain.revision_cause import RevisionCause
from memwarden.domain.scope import Visibility
from memwarden.limits import MAX_TURN_CHARS

FORMAT: Final = "memwarden-export"
VERSION: Final = 1

RecordKind = Literal[
    "entity", "attribute", "relation", "action", "instruction", "uncertainty", "note"
]


Cause = RevisionCause
Op = Literal["create", "update", "delete", "review", "supersede", "hold", "release", "restore"]


class Line(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Revision(Line):
    revision: int = Field(ge=1)
    op: Op
    content: dict[str, Any] | None
    actor: str = Field(max_length=200)
    at: datetime
    cause: Cause | None = None
    validFrom: datetime | None = None
    validTo: datetime | None = None
    replacedBy: uuid.UUID | None = None
    embeddingModel: str | None = Field(default=None, max_length=200)


class Receipt(Line):
    id: uuid.UUID
    revision: int = Field(ge=1)
    disposition: Literal["approved", "rejected", "unreviewed"]
    reviewer: str = Field(max_length=200)
    keyId: uuid.UUID
    evidenceRef: str = Field(max_length=2000)
    idempotencyKey: str | None = Field(default=None, max_length=200)
    commandDigest: str = Field(max_length=200)
    scope: dict[str, Any]
    decidedAt: datetime


class Review(Line):
    disposition: Literal["approved", "rejected"] | None
    revision: int | None
    receiptId: uuid.UUID | None


class Provenance(Line):
    sourceKind: str = Field(max_length=40)
    sourceRef: uuid.UUID | None = None
    importSourceDir: str | None = None
    rank: int = 0
    derivedFrom: list[uuid.UUID] = Field(default_factory=list)


class RecordLine(Line):
    kind: Literal["record"]
    id: uuid.UUID
    recordKind: RecordKind
    category: Literal["identity", "knowledge", "context"]
    scope: str = Field(max_length=1000)
    visibility: Visibility
    owner: str = Field(min_length=1, max_length=200)
    author: str = Field(min_length=1, max_length=200)
    content: dict[str, Any]
    body: str = Field(max_length=MAX_TURN_CHARS)
    normName: str | None = None
    entityId: uuid.UUID | None = None
    objectEntityId: uuid.UUID | None = None
    attrKey: str | None = None
    provenance: Provenance
    revision: int = Field(ge=1)
    review: Review | None = None
    serving: Literal["live", "held", "superseded", "invalidated", "deleted", "expired"]
    validFrom: datetime
    validTo: datetime | None = None
    supersededBy: uuid.UUID | None = None
    expiresAt: datetime | None = None
    deletedAt: datetime | None = None
    createdAt: datetime
    modifiedAt: datetime
    revisions: list[Revision] = Field(max_length=10_000)
    receipts: list[Receipt] = Field(default_factory=list, max_length=10_000)


class LinkLine(Line):
    kind: Literal["link"]
    recordLo: uuid.UUID
    recordHi: uuid.UUID
    linkKind: str = Field(max_length=40)
    confidence: float = Field(ge=0, le=1)
    judgeModel: str = Field(max_length=200)
    createdAt: datetime


class SessionLine(Line):
    kind: Literal["session"]
    id: uuid.UUID
    principal: str = Field(min_length=1, max_length=200)
    scope: str = Field(max_length=1000)
    createdAt: datetime


class Chunk(Line):
    id: uuid.UUID
    ordinal: int = Field(ge=0)
    text: str = Field(max_length=MAX_TURN_CHARS)
    embedded: bool = True


class TurnLine(Line):
    kind: Literal["turn"]
    id: uuid.UUID
    sessionId: uuid.UUID
    principal: str = Field(min_length=1, max_length=200)
    text: str = Field(max_length=MAX_TURN_CHARS)
    scope: str = Field(max_length=1000)
    visibility: Visibility
    owner: str = Field(min_length=1, max_length=200)
    serving: Literal["live", "held", "superseded", "invalidated", "deleted", "expired"]
    speaker: str | None = Field(default=None, max_length=400)
    createdAt: datetime
    chunks: list[Chunk] = Field(default_factory=list, max_length=10_000)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _id(value: uuid.UUID | None) -> str | None:
    return str(value) if value is not None else None


def header(context_id: uuid.UUID, covers: dict[str, Any], at: datetime) -> dict[str, Any]:
    return {
        "kind": "header",
        "format": FORMAT,
        "version": VERSION,
        "contextId": str(context_id),
        "exportedAt": at.isoformat(),
        "covers": covers,
    }


def record(row: dict[str, Any]) -> dict[str, Any]:
    """A record row of `portability_records` as its line."""
    review = None
    if row["review_disposition"] is not None or row["review_receipt_id"] is not None:
        review = {
            "disposition": row["review_disposition"],
            "revision": row["review_revision"],
            "receiptId": _id(row["review_receipt_id"]),
        }
    return {
        "kind": "record",
        "id": str(row["id"]),
        "recordKind": row["kind"],
        "category": row["memory_category"],
        "scope": row["scope_path"],
        "visibility": row["visibility"],
        "owner": row["owner_subject"],
        "author": row["author_subject"],
        "content": row["content"],
        "body": row["body"],
        "normName": row["norm_name"],
        "entityId": _id(row["entity_id"]),
        "objectEntityId": _id(row["object_entity_id"]),
        "attrKey": row["attr_key"],
        "provenance": {
            "sourceKind": row["source_kind"],
            "sourceRef": _id(row["source_ref"]),
            "importSourceDir": row["import_source_dir"],
            "rank": row["provenance_rank"],
            "derivedFrom": [str(i) for i in row["derived_from"]],
        },
        "revision": row["revision"],
        "review": review,
        "serving": row["serving"],
        "validFrom": _iso(row["valid_from"]),
        "validTo": _iso(row["valid_to"]),
        "supersededBy": _id(row["superseded_by"]),
        "expiresAt": _iso(row["expires_at"]),
        "deletedAt": _iso(row["deleted_at"]),
        "createdAt": _iso(row["created_at"]),
        "modifiedAt": _iso(row["modified_at"]),
        "revisions": row["revisions"],
        "receipts": row["receipts"],
    }


def link(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "link",
        "recordLo": str(row["record_lo"]),
        "recordHi": str(row["record_hi"]),
        "linkKind": row["kind"],
        "confidence": row["confidence"],
        "judgeModel": row["judge_model"],
        "createdAt": _iso(row["created_at"]),
    }


def turn(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "turn",
        "id": str(row["id"]),
        "sessionId": str(row["session_id"]),
        "principal": row["principal_subject"],
        "text": row["text"],
        "scope": row["scope_path"],
        "visibility": row["visibility"],
        "owner": row["owner_subject"],
        "serving": row["serving"],
        "speaker": row["speaker"],
        "createdAt": _iso(row["created_at"]),
        "chunks": row["chunks"],
    }


def session(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "session",
        "id": str(row["session_id"]),
        "principal": row["principal_subject"],
        "scope": row["session_scope"],
        "createdAt": _iso(row["session_created_at"]),
    }


def principal(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "principal",
        "id": str(row["id"]),
        "subject": row["subject"],
        "createdAt": _iso(row["created_at"]),
        "grants": row["grants"],
        "keys": row["keys"],
    }


def judgement(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "judgement",
        "id": str(row["id"]),
        "gate": row["gate"],
        "verdict": row["verdict"],
        "reasons": list(row["reasons"]),
        "source": row["source"],
        "scope": row["scope_path"],
        "visibility": row["visibility"],
        "excerpt": row["excerpt"],
        "rowCount": row["row_count"],
        "turnId": _id(row["turn_id"]),
        "documentId": _id(row["document_id"]),
        "held": row["held"],
        "holdDecision": row["hold_decision"],
        "overrideVerdict": row["override_verdict"],
        "overrideSubject": row["override_subject"],
        "createdAt": _iso(row["created_at"]),
    }


def end(counts: dict[str, int]) -> dict[str, Any]:
    return {"kind": "end", "counts": counts}
