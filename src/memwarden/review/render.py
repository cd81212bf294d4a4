"""JSON shapes of the contract: scope objects, records, review metadata, receipts."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from memwarden.errors import IntegrityFailure
from memwarden.review.contract import CONTRACT_VERSION
from memwarden.store.memory import ReceiptRow
from memwarden.store.search import ServedRecord

_LABELS = ("project", "mission", "agent")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def millis(value: datetime) -> int:
    """Milliseconds since the Unix epoch, exact (spec 3 names `modified_at_millis`)."""
    return (value - EPOCH) // timedelta(milliseconds=1)


def scope_object(path: str, visibility: str) -> dict[str, Any]:
    """The object form when the path follows it (`project/<p>/mission/<m>/agent/<a>`)."""
    ids: dict[str, str | None] = {"project_id": None, "mission_id": None, "agent_id": None}
    parts = path.split("/") if path else []
    fits, last = len(parts) % 2 == 0, -1
    for label, value in zip(parts[::2], parts[1::2], strict=False):
        position = _LABELS.index(label) if label in _LABELS else -1
        if position <= last:
            fits = False
            break
        ids[f"{label}_id"], last = value, position
    if not fits:
        ids = dict.fromkeys(ids)
    return {**ids, "visibility": visibility, "path": path}


class Reviewed(Protocol):
    """A record row carrying its current decision's receipt columns."""

    @property
    def review_receipt_id(self) -> uuid.UUID | None: ...
    @property
    def review_revision(self) -> int | None: ...
    @property
    def receipt_disposition(self) -> str | None: ...
    @property
    def receipt_revision(self) -> int | None: ...
    @property
    def receipt_reviewer(self) -> str | None: ...
    @property
    def receipt_decided_at(self) -> datetime | None: ...


def review_object(row: Reviewed) -> dict[str, Any] | None:
    """The current decision, or None; a dangling receipt reference is an integrity failure."""
    receipt_id = row.review_receipt_id
    if receipt_id is None:
        return None
    if row.receipt_disposition is None or row.receipt_revision != row.review_revision:
        raise IntegrityFailure("the record's review does not match its receipt")
    return {
        "disposition": row.receipt_disposition,
        "revision": row.receipt_revision,
        "receipt_id": str(receipt_id),
        "reviewer": row.receipt_reviewer,
        "decided_at": iso(row.receipt_decided_at),
    }


def record(row: ServedRecord) -> dict[str, Any]:
    out = {
        "id": str(row.id),
        "revision": row.revision,
        "kind": row.kind,
        "memory_category": row.memory_category,
        "content": row.content,
        "body": row.body,
        "scope": scope_object(row.scope_path, row.visibility),
        "author": row.author_subject,
        "review": review_object(row),
        "created_at": iso(row.created_at),
        "modified_at": iso(row.modified_at),
        "modified_at_millis": millis(row.modified_at),
        "expires_at": iso(row.expires_at),
    }
    if row.derived_from:  # a derived record: what it was made from, and by which pass
        out["derived_from"] = [str(d) for d in row.derived_from]
        out["derived_by"] = row.source_kind
    return out


def receipt(row: ReceiptRow) -> dict[str, Any]:
    return {
        "contract_version": CONTRACT_VERSION,
        "receipt_id": str(row.id),
        "record_id": str(row.record_id),
        "revision": row.revision,
        "disposition": row.disposition,
        "reviewer": row.reviewer_subject,
        "credential_id": str(row.key_id),
        "evidence_ref": row.evidence_ref,
        "decided_at": iso(row.decided_at),
        "idempotency_key": row.idempotency_key,
    }
